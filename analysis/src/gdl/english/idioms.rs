//! A GDL game as a rulebook: the common patterns of GDL games recognised by their structure
//! (never by a game's name) and said at the level of the game.
//!
//! - The board: a fluent of three or more arguments whose first two range over finite
//!   domains (from `init` facts, `base` rules and the static facts their bodies use) is a grid
//!   of those sizes; its last argument is what a cell holds ([`Game::find_board`]).
//! - Turn order: a one-argument fluent that starts as a player and passes from player to
//!   player in a cycle is the turn ([`Game::find_turns`]); a constant move legal only off turn is a
//!   pass.
//! - Lines: a relation whose rules test N ≥ 3 cells of the board for one content (with static
//!   relations such as `succ` between them), or that is one of such relations, says "N in a
//!   line" ([`Game::find_lines`]).
//! - Gravity: a move naming only a column, placing in the row that has an open cell above a
//!   closed one (`succ`), drops to the lowest open cell ([`Game::find_gravity`]).
//! - Frame axioms: a `next` rule that keeps a cell as it is says "a cell keeps its content".
//! - Goal tables: scores per player, the highest a win and 0 a loss.
//!
//! What is not recognised is said rule by rule, as the literal level says it, in the chapter
//! it belongs to: nothing of the game goes unsaid.

use std::cell::RefCell;
use std::collections::HashMap;

use crate::gdl::keywords;
use crate::gdl::model::{Compound, Literal, Rule, RuleSet, Term};
use crate::rulebook::{
    Line, LineNumbers, Part, Rulebook, UNREADABLE_NAMED, is_code_word, words_of_code_name,
};
use crate::{TextRange, egg::words::number_word};

use super::literals;
use super::rules;
use super::terms::{self, join_list};
use super::vocabulary::{Vocabulary, keyword_name};
use super::{GameExplanation, SectionKind};

mod counters;
mod relations;
mod sees;
mod summary;
mod symmetry;

/// Cells listed by name in a sentence of the set-up, at most.
const MOST_CELLS_LISTED: usize = 12;

/// Literal sentences a chapter falls back to are cut after this many (the literal level has
/// them all).
const MOST_LITERAL_LINES: usize = 12;

/// The rulebook of a GDL rule set; `literal` is its rule-by-rule explanation, the fallback for
/// what no idiom covers. `unreadable` are the ranges of `source` that could not be read (syntax
/// errors, malformed rules): each is named by its line, on the sentence of the rule it is part
/// of, or as a note of its own when no rule was read from it.
pub fn rulebook(
    title: &str,
    source: &str,
    rule_set: &RuleSet,
    vocabulary: &Vocabulary,
    literal: &GameExplanation,
    unreadable: &[TextRange],
) -> Rulebook {
    let mut book = build(title, rule_set, vocabulary, literal);
    // No sentence is cut: a rule too long for one sentence is said in several (see `summary`).
    for line in book.overview.iter_mut().chain(
        book.chapters
            .iter_mut()
            .flat_map(|chapter| chapter.lines.iter_mut()),
    ) {
        line.text = plain_names(&line.text);
    }
    note_unreadable(&mut book, source, unreadable);
    book
}

/// Names each unreadable part by its line: "(part of this rule, at line 5, could not be read)"
/// at the end of the sentences of the rule it is in, else "(a rule that could not be read:
/// line 6)" among the notes.
fn note_unreadable(book: &mut Rulebook, source: &str, unreadable: &[TextRange]) {
    let lines = LineNumbers::new(source);
    let mut apart: Vec<usize> = Vec::new();
    let mut noted: Vec<usize> = Vec::new();
    for range in unreadable.iter().take(UNREADABLE_NAMED) {
        let number = lines.line_of(range.start);
        let mut placed = false;
        let lines = book.overview.iter_mut().chain(
            book.chapters
                .iter_mut()
                .flat_map(|chapter| chapter.lines.iter_mut()),
        );
        for (at, line) in lines.enumerate() {
            let inside = line
                .ranges
                .iter()
                .any(|r| r.start <= range.start && range.start < r.end.max(r.start + 1));
            if inside {
                placed = true;
                if !noted.contains(&at) {
                    noted.push(at);
                    let text = line.text.trim_end_matches('.');
                    line.text =
                        format!("{text} (part of this rule, at line {number}, could not be read).");
                }
            }
        }
        if !placed && !apart.contains(&number) {
            apart.push(number);
        }
    }
    for number in apart {
        book.add(
            Part::Notes,
            Line::new(
                format!("(a rule that could not be read: line {number})"),
                Vec::new(),
            ),
        );
    }
    if let Some(more) = unreadable.len().checked_sub(UNREADABLE_NAMED)
        && more > 0
    {
        book.add(
            Part::Notes,
            Line::new(
                format!("({more} more parts could not be read; `ludeme check` lists them)"),
                Vec::new(),
            ),
        );
    }
}

/// The game's names as words where they are written as code: `boardOpen` → "board open",
/// `piece_count` → "piece count"; a variable keeps its capital (`TotalScore` → "Totalscore").
/// Text between backticks is left as it is.
fn plain_names(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut quoted = false;
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut String, quoted: bool| {
        if !quoted && is_code_word(word) {
            if word.starts_with(char::is_lowercase) {
                out.push_str(&words_of_code_name(word).to_lowercase());
            } else {
                let mut chars = word.chars();
                out.extend(chars.next());
                out.push_str(&chars.as_str().replace('_', "").to_lowercase());
            }
        } else {
            out.push_str(word);
        }
        word.clear();
    };
    for c in text.chars() {
        if c.is_alphanumeric() || c == '_' {
            word.push(c);
            continue;
        }
        flush(&mut word, &mut out, quoted);
        if c == '`' {
            quoted = !quoted;
        }
        out.push(c);
    }
    flush(&mut word, &mut out, quoted);
    out
}

fn build(
    title: &str,
    rule_set: &RuleSet,
    vocabulary: &Vocabulary,
    literal: &GameExplanation,
) -> Rulebook {
    let game = Game::new(rule_set, vocabulary);
    let mut book = Rulebook::new(title);
    book.add_overview(Line::new(game.overview(), game.role_ranges()));
    if let Some(chance) = game.chance() {
        book.add_overview(chance);
    }
    if let Some(object) = game.object() {
        book.add_overview(object);
    }
    let fallback = |book: &mut Rulebook, part: Part, kind: SectionKind| {
        if let Some(section) = literal.section(kind) {
            let total = section.items.len();
            for item in section.items.iter().take(MOST_LITERAL_LINES) {
                for line in game.literal_lines(kind, item) {
                    book.add(part, line);
                }
            }
            if total > MOST_LITERAL_LINES {
                book.add(
                    part,
                    Line::new(
                        format!(
                            "And {} more rules of this kind (`ludeme explain --literal` lists them all)",
                            total - MOST_LITERAL_LINES
                        ),
                        Vec::new(),
                    ),
                );
            }
        }
    };
    // Each chapter from the idioms; a chapter they leave empty from the literal level, where
    // it has a section.
    let chapters = [
        (Part::Setup, game.setup(), Some(SectionKind::InitialState)),
        (
            Part::Turns,
            [game.turns(), game.counter_lines()].concat(),
            None,
        ),
        (Part::Moves, game.moves(), Some(SectionKind::Legal)),
        (Part::Information, game.information(), None),
        (Part::Ending, game.ending(), None),
        (Part::Scoring, game.scoring(), Some(SectionKind::Goal)),
    ];
    for (part, lines, literal_kind) in chapters {
        if lines.is_empty()
            && let Some(kind) = literal_kind
        {
            fallback(&mut book, part, kind);
        }
        for line in lines {
            book.add(part, line);
        }
    }
    book.add(
        Part::Notes,
        Line::new(
            "The rules one by one, with every helper relation, are in `ludeme explain --literal`",
            Vec::new(),
        ),
    );
    book
}

/// A score and the goal rules that give it.
type Scored<'a> = (String, Vec<&'a Rule>);

/// A board fluent: `(cell X Y content)`.
#[derive(Clone, Debug)]
struct Board {
    fluent: String,
    arity: usize,
    columns: Vec<String>,
    rows: Vec<String>,
    /// What a cell may hold, in order of first appearance.
    contents: Vec<String>,
    /// The content every cell starts with, when there is one (`b`).
    blank: Option<String>,
}

/// A relation that says "N cells in a line hold C".
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct LineRelation {
    length: usize,
    /// The argument of the relation that is the content.
    content: usize,
}

/// The turn fluent: `control`, who starts, and the order.
#[derive(Clone, Debug)]
struct Turns {
    fluent: String,
    order: Vec<String>,
}

struct Game<'a> {
    rules: &'a [Rule],
    vocabulary: &'a Vocabulary,
    roles: Vec<String>,
    /// Relations given by ground facts only, with their tuples.
    statics: HashMap<String, Vec<Vec<String>>>,
    /// Relations whose rules test static relations only (`cell(X, Y) :- index(X), index(Y)`):
    /// they never change during play.
    static_rules: Vec<String>,
    board: Option<Board>,
    turns: Option<Turns>,
    lines: HashMap<String, LineRelation>,
    /// Fluents that count the moves (`step`).
    counters: Vec<counters::Counter>,
    /// Relations and fluent places that hold a player (`in_check ?player`).
    player_places: relations::PlayerPlaces,
    /// Whether a move drops its piece to the lowest open cell of a column.
    gravity: bool,
    /// Zero-argument relations said in the game's terms (`open`: "some cell holds b";
    /// `whiteWin`: "white has a piece on row 8, or black has no piece left on the board").
    said: RefCell<HashMap<String, Said>>,
}

/// A condition in the game's terms, and its negation when it has a natural one.
#[derive(Clone, Debug)]
struct Said {
    positive: String,
    negative: Option<String>,
}

fn keyword(rule_or_sentence: &Compound) -> Option<&'static str> {
    keyword_name(&rule_or_sentence.name.name)
}

/// The fluent of `(init F)`, `(next F)`, `(base F)`, `(true F)`.
fn fluent_of(sentence: &Compound) -> Option<&Compound> {
    match sentence.args.as_slice() {
        [Term::Function(fluent)] => Some(fluent),
        _ => None,
    }
}

fn is_true_sentence(literal: &Literal) -> Option<&Compound> {
    match literal {
        Literal::Sentence(sentence) if keyword(sentence) == Some(keywords::TRUE) => {
            fluent_of(sentence)
        }
        _ => None,
    }
}

/// Numbers sort as numbers, other names as written.
fn sort_values(values: &mut [String]) {
    if values.iter().all(|v| v.parse::<i64>().is_ok()) {
        values.sort_by_key(|v| v.parse::<i64>().unwrap_or_default());
    }
}

impl<'a> Game<'a> {
    fn new(rule_set: &'a RuleSet, vocabulary: &'a Vocabulary) -> Self {
        let rules = rule_set.rules.as_slice();
        let mut roles = Vec::new();
        let mut statics: HashMap<String, Vec<Vec<String>>> = HashMap::new();
        let mut derived: Vec<String> = Vec::new();
        for rule in rules {
            let head = &rule.head;
            if keyword(head) == Some(keywords::ROLE) && rule.is_fact() {
                if let [role] = head.args.as_slice() {
                    roles.push(terms::term(role));
                }
            } else if keyword(head).is_none() {
                if rule.is_fact() && head.args.iter().all(terms::is_ground) {
                    statics
                        .entry(head.name.name.to_string())
                        .or_default()
                        .push(head.args.iter().map(terms::term).collect());
                } else {
                    derived.push(head.name.name.to_string());
                }
            }
        }
        for name in derived {
            statics.remove(&name);
        }
        let mut game = Game {
            rules,
            vocabulary,
            roles,
            statics,
            static_rules: Vec::new(),
            board: None,
            turns: None,
            lines: HashMap::new(),
            counters: Vec::new(),
            player_places: relations::PlayerPlaces::default(),
            gravity: false,
            said: RefCell::new(HashMap::new()),
        };
        game.static_rules = game.find_static_rules();
        game.board = game.find_board();
        game.turns = game.find_turns();
        game.counters = game.find_counters();
        game.player_places = game.find_player_places();
        game.lines = game.find_lines();
        game.gravity = game.find_gravity().is_some();
        game.find_said();
        game
    }

    fn role_ranges(&self) -> Vec<TextRange> {
        self.rules
            .iter()
            .filter(|rule| keyword(&rule.head) == Some(keywords::ROLE))
            .map(|rule| rule.range)
            .collect()
    }

    fn rules_of(&self, keyword_wanted: &'static str) -> impl Iterator<Item = &'a Rule> + '_ {
        self.rules
            .iter()
            .filter(move |rule| keyword(&rule.head) == Some(keyword_wanted))
    }

    /// The values a variable takes in a rule body: those of the first static relation or
    /// `role` that binds it.
    fn variable_domain(&self, body: &[Literal], variable: &str) -> Option<Vec<String>> {
        body.iter().find_map(|literal| {
            let Literal::Sentence(sentence) = literal else {
                return None;
            };
            let position = sentence
                .args
                .iter()
                .position(|arg| matches!(arg, Term::Variable(v) if &*v.name == variable))?;
            if keyword(sentence) == Some(keywords::ROLE) {
                return Some(self.roles.clone());
            }
            let tuples = self.statics.get(&*sentence.name.name)?;
            let mut values: Vec<String> = Vec::new();
            for tuple in tuples {
                if let Some(value) = tuple.get(position)
                    && !values.contains(value)
                {
                    values.push(value.clone());
                }
            }
            Some(values)
        })
    }

    /// The values of each argument of fluent `name`/`arity`: from the `base` declarations
    /// when they give at least two values for each coordinate, else the `init` facts, else the
    /// `next` heads (whose variables may range wider than the board, as `succ` does).
    fn fluent_domains(&self, name: &str, arity: usize) -> Vec<Vec<String>> {
        let mut fallback = vec![Vec::new(); arity];
        for source in [keywords::BASE, keywords::INIT, keywords::NEXT] {
            let domains = self.fluent_domains_in(source, name, arity);
            if domains.len() >= 2 && domains[0].len() >= 2 && domains[1].len() >= 2 {
                return domains;
            }
            if fallback.iter().all(Vec::is_empty) {
                fallback = domains;
            }
        }
        fallback
    }

    fn fluent_domains_in(
        &self,
        source: &'static str,
        name: &str,
        arity: usize,
    ) -> Vec<Vec<String>> {
        let mut domains: Vec<Vec<String>> = vec![Vec::new(); arity];
        for rule in self.rules_of(source) {
            let Some(fluent) = fluent_of(&rule.head) else {
                continue;
            };
            if &*fluent.name.name != name || fluent.arity() != arity {
                continue;
            }
            for (position, arg) in fluent.args.iter().enumerate() {
                let values = match arg {
                    Term::Constant(_) => Some(vec![terms::term(arg)]),
                    Term::Variable(variable) => self.variable_domain(&rule.body, &variable.name),
                    Term::Function(_) => None,
                };
                for value in values.into_iter().flatten() {
                    if !domains[position].contains(&value) {
                        domains[position].push(value);
                    }
                }
            }
        }
        domains
    }

    fn find_board(&self) -> Option<Board> {
        let mut candidates: Vec<(String, usize)> = Vec::new();
        for rule in self.rules {
            if matches!(
                keyword(&rule.head),
                Some(keywords::INIT | keywords::BASE | keywords::NEXT)
            ) && let Some(fluent) = fluent_of(&rule.head)
                && fluent.arity() >= 3
            {
                let key = (fluent.name.name.to_string(), fluent.arity());
                if !candidates.contains(&key) {
                    candidates.push(key);
                }
            }
        }
        let mut best: Option<Board> = None;
        for (name, arity) in candidates {
            let mut domains = self.fluent_domains(&name, arity);
            let (mut columns, mut rows) = (domains[0].clone(), domains[1].clone());
            if columns.len() < 2 || rows.len() < 2 {
                continue;
            }
            sort_values(&mut columns);
            sort_values(&mut rows);
            // What a cell holds: every value any source gives (a `base` of `role` misses the
            // blank an `init` gives).
            let mut contents = domains.pop().unwrap_or_default();
            for source in [keywords::BASE, keywords::INIT, keywords::NEXT] {
                for value in self
                    .fluent_domains_in(source, &name, arity)
                    .pop()
                    .unwrap_or_default()
                {
                    if !contents.contains(&value) {
                        contents.push(value);
                    }
                }
            }
            let better = best
                .as_ref()
                .is_none_or(|b| b.columns.len() * b.rows.len() < columns.len() * rows.len());
            if better {
                let blank = self.blank_content(&name, arity, columns.len() * rows.len());
                best = Some(Board {
                    fluent: name,
                    arity,
                    columns,
                    rows,
                    contents,
                    blank,
                });
            }
        }
        best
    }

    /// The initial cells of the board fluent, as (column, row, content).
    fn initial_cells(&self, name: &str, arity: usize) -> Vec<(String, String, String, TextRange)> {
        self.rules_of(keywords::INIT)
            .filter(|rule| rule.is_fact())
            .filter_map(|rule| {
                let fluent = fluent_of(&rule.head)?;
                (&*fluent.name.name == name && fluent.arity() == arity).then(|| {
                    (
                        terms::term(&fluent.args[0]),
                        terms::term(&fluent.args[1]),
                        terms::term(&fluent.args[arity - 1]),
                        rule.range,
                    )
                })
            })
            .collect()
    }

    /// The content that fills every cell initially (`b`), if one does.
    fn blank_content(&self, name: &str, arity: usize, cells: usize) -> Option<String> {
        let initial = self.initial_cells(name, arity);
        let first = initial.first()?.2.clone();
        (initial.len() == cells && initial.iter().all(|(_, _, c, _)| *c == first)).then_some(first)
    }

    fn find_turns(&self) -> Option<Turns> {
        // Candidates: one-argument fluents that start as a player.
        for init in self.rules_of(keywords::INIT) {
            let Some(fluent) = fluent_of(&init.head) else {
                continue;
            };
            let [first] = fluent.args.as_slice() else {
                continue;
            };
            let first = terms::term(first);
            if !self.roles.contains(&first) {
                continue;
            }
            let name = fluent.name.name.to_string();
            let mut successor: HashMap<String, String> = HashMap::new();
            for rule in self.rules_of(keywords::NEXT) {
                let Some(next) = fluent_of(&rule.head) else {
                    continue;
                };
                if *next.name.name != *name {
                    continue;
                }
                let [Term::Constant(to)] = next.args.as_slice() else {
                    return None;
                };
                let [literal] = rule.body.as_slice() else {
                    return None;
                };
                let from = is_true_sentence(literal)
                    .filter(|current| *current.name.name == *name)
                    .and_then(|current| match current.args.as_slice() {
                        [Term::Constant(from)] => Some(from.name.to_string()),
                        _ => None,
                    })?;
                successor.insert(from, to.name.to_string());
            }
            let mut order = vec![first.clone()];
            while let Some(next) = successor.get(order.last().expect("not empty")) {
                if *next == first {
                    break;
                }
                if order.contains(next) || order.len() > self.roles.len() {
                    return None;
                }
                order.push(next.clone());
            }
            if order.len() == self.roles.len() && order.len() >= 2 {
                return Some(Turns {
                    fluent: name,
                    order,
                });
            }
        }
        None
    }

    /// Whether `literal` tests whose turn it is (`(true (control R))`).
    fn is_turn_test(&self, literal: &Literal) -> bool {
        let Some(turns) = &self.turns else {
            return false;
        };
        is_true_sentence(literal).is_some_and(|fluent| *fluent.name.name == *turns.fluent)
    }

    /// Whether `literal` tests a cell of the board (`(true (cell X Y C))`); returns the
    /// content term.
    fn board_test<'l>(&self, literal: &'l Literal) -> Option<&'l Term> {
        let board = self.board.as_ref()?;
        let fluent = is_true_sentence(literal)?;
        (*fluent.name.name == *board.fluent && fluent.arity() == board.arity)
            .then(|| fluent.args.last())
            .flatten()
    }

    fn is_static_test(&self, literal: &Literal) -> bool {
        self.is_static_under(literal, &self.static_rules)
    }

    /// Whether `literal` tests a static relation, with `static_rules` the relations known so
    /// far to be defined by static rules.
    fn is_static_under(&self, literal: &Literal, static_rules: &[String]) -> bool {
        match literal {
            Literal::Distinct { .. } => true,
            Literal::Sentence(sentence) => {
                let name = &*sentence.name.name;
                self.statics.contains_key(name)
                    || static_rules.iter().any(|r| r == name)
                    || keyword(sentence) == Some(keywords::ROLE)
            }
            _ => false,
        }
    }

    /// The relations defined by rules over static relations only, to a fixed point.
    fn find_static_rules(&self) -> Vec<String> {
        let mut by_relation: Vec<(String, Vec<&Rule>)> = Vec::new();
        for rule in self.rules {
            if keyword(&rule.head).is_some() || rule.is_fact() {
                continue;
            }
            let name = rule.head.name.name.to_string();
            match by_relation.iter_mut().find(|(n, _)| *n == name) {
                Some((_, rules)) => rules.push(rule),
                None => by_relation.push((name, vec![rule])),
            }
        }
        let mut found: Vec<String> = Vec::new();
        loop {
            let before = found.len();
            for (name, rules) in &by_relation {
                if found.contains(name) {
                    continue;
                }
                if rules
                    .iter()
                    .all(|rule| rule.body.iter().all(|l| self.is_static_under(l, &found)))
                {
                    found.push(name.clone());
                }
            }
            if found.len() == before {
                return found;
            }
        }
    }

    fn find_lines(&self) -> HashMap<String, LineRelation> {
        let mut lines: HashMap<String, LineRelation> = HashMap::new();
        if self.board.is_none() {
            return lines;
        }
        let mut by_relation: HashMap<String, Vec<&Rule>> = HashMap::new();
        for rule in self.rules {
            if keyword(&rule.head).is_none() && !rule.is_fact() {
                by_relation
                    .entry(rule.head.name.name.to_string())
                    .or_default()
                    .push(rule);
            }
        }
        // Lines of cells first, then relations that are one of them, to a fixed point (a
        // relation is one of lines at most as deep as the game's definitions nest).
        for _ in 0..4 {
            let before = lines.len();
            for (name, rules) in &by_relation {
                if lines.contains_key(name) {
                    continue;
                }
                let found: Option<Vec<LineRelation>> = rules
                    .iter()
                    .map(|rule| self.line_rule(rule, &lines))
                    .collect();
                if let Some(found) = found
                    && let Some(first) = found.first()
                    && found.iter().all(|f| f == first)
                {
                    lines.insert(name.clone(), *first);
                }
            }
            if lines.len() == before {
                break;
            }
        }
        lines
    }

    /// What one rule of a line relation says, if it is one: N board tests of one content
    /// among static tests, or one line relation passed on.
    fn line_rule(
        &self,
        rule: &Rule,
        lines: &HashMap<String, LineRelation>,
    ) -> Option<LineRelation> {
        let head_position = |term: &Term| {
            rule.head.args.iter().position(|arg| {
                terms::term(arg) == terms::term(term) && matches!(arg, Term::Variable(_))
            })
        };
        if let [Literal::Sentence(inner)] = rule.body.as_slice()
            && let Some(line) = lines.get(&*inner.name.name)
        {
            let content = head_position(inner.args.get(line.content)?)?;
            return Some(LineRelation {
                length: line.length,
                content,
            });
        }
        let mut content: Option<String> = None;
        let mut length = 0;
        for literal in &rule.body {
            if let Some(term) = self.board_test(literal) {
                let text = terms::term(term);
                if content.as_ref().is_some_and(|c| *c != text) {
                    return None;
                }
                content = Some(text);
                length += 1;
            } else if !self.is_static_test(literal) {
                return None;
            }
        }
        let content = content?;
        let position = rule
            .head
            .args
            .iter()
            .position(|arg| terms::term(arg) == content && matches!(arg, Term::Variable(_)))?;
        (length >= 3).then_some(LineRelation {
            length,
            content: position,
        })
    }

    /// What `literal` says in the game's terms, when an idiom covers it. With `existential`,
    /// the variables of a board test are "some cell" (they are the body's own, under a head
    /// without variables).
    fn say_literal(&self, literal: &Literal, existential: bool) -> Option<Said> {
        match literal {
            Literal::Not { inner, .. } => {
                let inner = self.say_literal(inner, existential)?;
                Some(Said {
                    positive: inner.negative?,
                    negative: Some(inner.positive),
                })
            }
            Literal::Sentence(sentence) => {
                let name = &*sentence.name.name;
                if let Some(line) = self.lines.get(name)
                    && let Some(content) = sentence.args.get(line.content)
                {
                    let content = terms::term(content);
                    let count = number_word(line.length as u64);
                    return Some(if self.roles.contains(&content) {
                        Said {
                            positive: format!("{content} has {count} pieces in a line"),
                            negative: Some(format!(
                                "{content} does not have {count} pieces in a line"
                            )),
                        }
                    } else {
                        Said {
                            positive: format!("{count} cells in a line hold {content}"),
                            negative: Some(format!("no {count} cells in a line hold {content}")),
                        }
                    });
                }
                if sentence.arity() == 0
                    && let Some(said) = self.said.borrow().get(name)
                {
                    return Some(said.clone());
                }
                if keyword(sentence) == Some(keywords::TRUE)
                    && let Some(fluent) = fluent_of(sentence)
                {
                    if let Some(said) = self.say_counter(fluent) {
                        return Some(said);
                    }
                    return if existential {
                        self.say_board_test(fluent)
                    } else {
                        self.say_piece_on(fluent)
                    };
                }
                if let [column, row] = sentence.args.as_slice()
                    && self.is_empty_cell_relation(name)
                {
                    return Some(self.say_empty_cell(column, row, existential));
                }
                if let Some(alias) = self.resolve_alias(sentence) {
                    return self.say_literal(&Literal::Sentence(alias), existential);
                }
                if let [before, after] = sentence.args.as_slice()
                    && self.is_chain(name)
                {
                    let (before, after) = (terms::term(before), terms::term(after));
                    return Some(Said {
                        positive: format!("{after} comes right after {before}"),
                        negative: Some(format!("{after} does not come right after {before}")),
                    });
                }
                self.say_relation(sentence)
            }
            _ => None,
        }
    }

    /// Whether `literal` is said by [`Game::say_relation`] (a relation with its player first).
    fn is_said_relation(&self, literal: &Literal) -> bool {
        match literal {
            Literal::Not { inner, .. } => self.is_said_relation(inner),
            Literal::Sentence(sentence) => self.say_relation(sentence).is_some(),
            _ => false,
        }
    }

    /// The column, row and content of `fluent` when it is the board's cell fluent with a
    /// constant content: `(cell ?x 8 white)`.
    fn board_cell_with_constant<'f>(
        &self,
        fluent: &'f Compound,
    ) -> Option<(&'f Term, &'f Term, String)> {
        let board = self.board.as_ref()?;
        if *fluent.name.name != *board.fluent || fluent.arity() != 3 {
            return None;
        }
        let [column, row, Term::Constant(content)] = fluent.args.as_slice() else {
            return None;
        };
        Some((column, row, content.name.to_string()))
    }

    /// A test of one cell for a player's piece: "white has a piece on (X, Y1)".
    fn say_piece_on(&self, fluent: &Compound) -> Option<Said> {
        let (column, row, content) = self.board_cell_with_constant(fluent)?;
        if !self.roles.contains(&content) {
            return None;
        }
        let cell = format!("({}, {})", terms::term(column), terms::term(row));
        Some(Said {
            positive: format!("{content} has a piece on {cell}"),
            negative: Some(format!("{content} has no piece on {cell}")),
        })
    }

    /// An empty cell: "(X, Y) is empty"; with gravity, the top cell of a column is "column X is
    /// not full", and, with `existential`, some top cell is "the board is not full"; another
    /// row is "some cell of row 3 is empty".
    fn say_empty_cell(&self, column: &Term, row: &Term, existential: bool) -> Said {
        let top_row = match (&self.board, row) {
            (Some(board), Term::Constant(row)) => {
                self.gravity && board.rows.last().is_some_and(|top| **top == *row.name)
            }
            _ => false,
        };
        let (column, row) = (terms::term(column), terms::term(row));
        let (positive, negative) = match (existential, top_row) {
            (true, true) => (
                "the board is not full (some column's top cell is empty)".to_owned(),
                "the board is full".to_owned(),
            ),
            (true, false) => (
                format!("some cell of row {row} is empty"),
                format!("every cell of row {row} is occupied"),
            ),
            (false, true) => (
                format!("column {column} is not full (its top cell, ({column}, {row}), is empty)"),
                format!("column {column} is full"),
            ),
            (false, false) => (
                format!("({column}, {row}) is empty"),
                format!("({column}, {row}) is not empty"),
            ),
        };
        Said {
            positive,
            negative: Some(negative),
        }
    }

    /// The sentence a relation defined by one rule stands for, its arguments put in: with
    /// `columnOpen(X) :- cellOpen(X, 6)`, `columnOpen(c)` is `cellOpen(c, 6)`. The rule's body
    /// is that one sentence beside tests of fixed relations over the head's variables (their
    /// ranges); followed through a few such definitions.
    fn resolve_alias(&self, sentence: &Compound) -> Option<Compound> {
        let mut current = sentence.clone();
        let mut resolved = false;
        for _ in 0..4 {
            match self.alias_step(&current) {
                Some(next) => {
                    current = next;
                    resolved = true;
                }
                None => break,
            }
        }
        resolved.then_some(current)
    }

    fn alias_step(&self, sentence: &Compound) -> Option<Compound> {
        if keyword(sentence).is_some() || sentence.arity() == 0 {
            return None;
        }
        let mut rules = self.rules.iter().filter(|rule| {
            rule.head.name.name == sentence.name.name && rule.head.arity() == sentence.arity()
        });
        let (Some(rule), None) = (rules.next(), rules.next()) else {
            return None;
        };
        let mut head_variables: Vec<&str> = Vec::new();
        for arg in &rule.head.args {
            match arg {
                Term::Variable(v) if !head_variables.contains(&&*v.name) => {
                    head_variables.push(&v.name)
                }
                _ => return None,
            }
        }
        let mut inner: Option<&Compound> = None;
        for literal in &rule.body {
            if self.is_static_test(literal) {
                let mut variables = Vec::new();
                rules::literal_variables(literal, &mut variables);
                let mut own = Vec::new();
                for arg in &rule.head.args {
                    own.push(terms::term(arg));
                }
                if variables.iter().any(|v| !own.contains(v)) {
                    return None;
                }
                continue;
            }
            match (literal, inner) {
                (Literal::Sentence(s), None) if keyword(s).is_none() => inner = Some(s),
                _ => return None,
            }
        }
        let inner = inner?;
        let mut args = Vec::with_capacity(inner.args.len());
        for arg in &inner.args {
            args.push(match arg {
                Term::Variable(v) => {
                    let at = head_variables.iter().position(|h| **h == *v.name)?;
                    sentence.args[at].clone()
                }
                Term::Constant(_) => arg.clone(),
                Term::Function(_) => return None,
            });
        }
        Some(Compound {
            args,
            ..inner.clone()
        })
    }

    /// Whether `name(X, Y)` says that cell (X, Y) is empty: its one rule tests, besides the
    /// ranges of X and Y, that no player has a piece there (`cellEmpty` of breakthrough,
    /// `cellOpen` of connect four).
    fn is_empty_cell_relation(&self, name: &str) -> bool {
        let Some(board) = &self.board else {
            return false;
        };
        let mut rules = self
            .rules
            .iter()
            .filter(|rule| &*rule.head.name.name == name);
        let (Some(rule), None) = (rules.next(), rules.next()) else {
            return false;
        };
        let [Term::Variable(x), Term::Variable(y)] = rule.head.args.as_slice() else {
            return false;
        };
        let mut absent: Vec<String> = Vec::new();
        for literal in &rule.body {
            if self.is_static_test(literal) {
                continue;
            }
            let Literal::Not { inner, .. } = literal else {
                return false;
            };
            let Some(fluent) = is_true_sentence(inner) else {
                return false;
            };
            match fluent.args.as_slice() {
                [
                    Term::Variable(a),
                    Term::Variable(b),
                    Term::Constant(content),
                ] if *fluent.name.name == *board.fluent && a.name == x.name && b.name == y.name => {
                    absent.push(content.name.to_string());
                }
                _ => return false,
            }
        }
        !self.roles.is_empty() && self.roles.iter().all(|role| absent.contains(role))
    }

    /// Whether `name` is a successor relation: static pairs that chain values one after the
    /// other (`succ 1 2`, `succ 2 3`, ...), each value at most once on each side.
    fn is_chain(&self, name: &str) -> bool {
        let Some(pairs) = self.statics.get(name) else {
            return false;
        };
        let mut firsts: Vec<&str> = Vec::new();
        let mut seconds: Vec<&str> = Vec::new();
        for pair in pairs {
            let [first, second] = pair.as_slice() else {
                return false;
            };
            if firsts.contains(&first.as_str()) || seconds.contains(&second.as_str()) {
                return false;
            }
            firsts.push(first);
            seconds.push(second);
        }
        // A chain, not a cycle: exactly one value starts it.
        pairs.len() >= 2 && firsts.iter().filter(|f| !seconds.contains(f)).count() == 1
    }

    /// A test of some cell of the board for a constant: "some cell holds b", "white has a
    /// piece on row 8".
    fn say_board_test(&self, fluent: &Compound) -> Option<Said> {
        let (column, row, content) = self.board_cell_with_constant(fluent)?;
        let role = self.roles.contains(&content);
        let (positive, negative) = match (column, row, role) {
            (Term::Variable(_), Term::Variable(_), true) => (
                format!("{content} has a piece on the board"),
                format!("{content} has no piece left on the board"),
            ),
            (Term::Variable(_), Term::Variable(_), false) => (
                format!("some cell holds {content}"),
                format!("no cell holds {content}"),
            ),
            (Term::Variable(_), Term::Constant(row), true) => (
                format!("{content} has a piece on row {}", row.name),
                format!("{content} has no piece on row {}", row.name),
            ),
            (Term::Variable(_), Term::Constant(row), false) => (
                format!("some cell of row {} holds {content}", row.name),
                format!("no cell of row {} holds {content}", row.name),
            ),
            _ => return None,
        };
        Some(Said {
            positive,
            negative: Some(negative),
        })
    }

    /// Finds the zero-argument relations whose every rule is said by idioms (static tests
    /// that only give a variable its range aside), to a fixed point, into `self.said`.
    fn find_said(&self) {
        let mut by_relation: Vec<(String, Vec<&Rule>)> = Vec::new();
        for rule in self.rules {
            if keyword(&rule.head).is_some() || rule.head.arity() != 0 || rule.is_fact() {
                continue;
            }
            let name = rule.head.name.name.to_string();
            match by_relation.iter_mut().find(|(n, _)| *n == name) {
                Some((_, rules)) => rules.push(rule),
                None => by_relation.push((name, vec![rule])),
            }
        }
        for _ in 0..4 {
            let before = self.said.borrow().len();
            for (name, rules) in &by_relation {
                if self.said.borrow().contains_key(name) {
                    continue;
                }
                let alternatives: Option<Vec<Said>> =
                    rules.iter().map(|rule| self.say_body(&rule.body)).collect();
                let Some(alternatives) = alternatives else {
                    continue;
                };
                let positives: Vec<String> =
                    alternatives.iter().map(|a| a.positive.clone()).collect();
                let negatives: Option<Vec<String>> =
                    alternatives.iter().map(|a| a.negative.clone()).collect();
                self.said.borrow_mut().insert(
                    name.clone(),
                    Said {
                        positive: match positives.as_slice() {
                            [one] => one.clone(),
                            many => format!("either {}", join_list(many, "or")),
                        },
                        // Not (A or B) is not A and not B.
                        negative: negatives.map(|n| join_list(&n, "and")),
                    },
                );
            }
            if self.said.borrow().len() == before {
                break;
            }
        }
    }

    /// A body under a head without variables, said by idioms: the static tests whose
    /// variables the other conditions use are ranges, not conditions.
    fn say_body(&self, body: &[Literal]) -> Option<Said> {
        let mut other_variables: Vec<String> = Vec::new();
        for literal in body.iter().filter(|l| !self.is_static_test(l)) {
            rules::literal_variables(literal, &mut other_variables);
        }
        let mut parts = Vec::new();
        for literal in body {
            if self.is_static_test(literal) {
                let mut mine = Vec::new();
                rules::literal_variables(literal, &mut mine);
                if !mine.is_empty() && mine.iter().all(|v| other_variables.contains(v)) {
                    continue;
                }
                return None;
            }
            parts.push(self.say_literal(literal, true)?);
        }
        match parts.as_slice() {
            [] => None,
            [one] => Some(one.clone()),
            many => Some(Said {
                positive: join_list(
                    &many.iter().map(|p| p.positive.clone()).collect::<Vec<_>>(),
                    "and",
                ),
                negative: None,
            }),
        }
    }

    /// A condition in the game's terms: a line relation as "N cells in a line hold C", a
    /// relation said by idioms as such; any other as the literal level reads it.
    fn condition(&self, literal: &Literal) -> String {
        match self.say_literal(literal, false) {
            Some(said) => said.positive,
            None => literals::literal(literal, self.vocabulary).text(),
        }
    }

    /// The conditions of a body, in the game's terms when an idiom applies, else grouped as the
    /// literal level groups them.
    fn conditions(&self, body: &[Literal]) -> String {
        let idiomatic = |literal: &Literal| self.say_literal(literal, false).is_some();
        let (said, rest): (Vec<&Literal>, Vec<&Literal>) = body.iter().partition(|l| idiomatic(l));
        let mut items: Vec<String> = said.iter().map(|l| self.condition(l)).collect();
        let rest: Vec<Literal> = rest.into_iter().cloned().collect();
        items.extend(literals::body(&rest, self.vocabulary).items);
        join_list(&items, "and")
    }

    fn overview(&self) -> String {
        let players = match self.players().as_slice() {
            [] => "No player is declared".to_owned(),
            [one] => format!("A puzzle for one player, {one}"),
            roles => format!(
                "A game for {} players, {}",
                number_word(roles.len() as u64),
                join_list(roles, "and")
            ),
        };
        let players = match &self.turns {
            Some(turns) => format!("{players}, taking turns with {} first", turns.order[0]),
            None => players,
        };
        match &self.board {
            Some(board) => format!("{players}, on {}", self.board_phrase(board)),
            None => players,
        }
    }

    /// "a 3×3 board whose cells hold b, x or o"; "a board 8 wide and 6 high whose cells are
    /// empty or hold a piece of red or black".
    fn board_phrase(&self, board: &Board) -> String {
        let (width, height) = (board.columns.len(), board.rows.len());
        let size = if width == height {
            crate::rulebook::with_indefinite_article(&format!("{width}×{height} board"))
        } else {
            format!("a board {width} wide and {height} high")
        };
        let contents: Vec<String> = board.contents.clone();
        let all_roles = !contents.is_empty() && contents.iter().all(|c| self.roles.contains(c));
        let holds = if all_roles {
            format!(
                "are empty or hold a piece of {}",
                join_list(&contents, "or")
            )
        } else if contents.len() > 8 {
            format!(
                "hold one of {} values ({}, …)",
                contents.len(),
                contents[..6].join(", ")
            )
        } else {
            let marks: Vec<String> = contents
                .iter()
                .filter(|c| Some(*c) != board.blank.as_ref())
                .cloned()
                .collect();
            match &board.blank {
                Some(blank) if !marks.is_empty() => {
                    format!(
                        "start as {blank} and are marked {}",
                        join_list(&marks, "or")
                    )
                }
                _ => format!("hold {}", join_list(&contents, "or")),
            }
        };
        format!("{size} whose cells {holds}")
    }

    /// Goal rules by role, then score, in order of appearance.
    fn goal_table(&self) -> Vec<(String, Vec<Scored<'a>>)> {
        let mut table: Vec<(String, Vec<Scored<'a>>)> = Vec::new();
        for rule in self.rules_of(keywords::GOAL) {
            let [role, score] = rule.head.args.as_slice() else {
                continue;
            };
            let (role, score) = (terms::term(role), terms::term(score));
            let at = match table.iter().position(|(r, _)| *r == role) {
                Some(at) => at,
                None => {
                    table.push((role, Vec::new()));
                    table.len() - 1
                }
            };
            let scores = &mut table[at].1;
            match scores.iter_mut().find(|(s, _)| *s == score) {
                Some((_, rules)) => rules.push(rule),
                None => scores.push((score, vec![rule])),
            }
        }
        table
    }

    fn highest_score(&self) -> Option<i64> {
        self.rules_of(keywords::GOAL)
            .filter_map(|rule| rule.head.args.get(1).map(terms::term))
            .filter_map(|score| score.parse::<i64>().ok())
            .max()
    }

    /// "when A and B", with "for some X" when the body has variables of its own that no idiom
    /// has said.
    fn when(&self, rule: &Rule) -> String {
        format!(
            "when {}{}",
            self.conditions(&rule.body),
            self.existential_tail(rule)
        )
    }

    /// " for some M and N" when the rule's body has variables of its own that no idiom has
    /// said; empty otherwise.
    fn existential_tail(&self, rule: &Rule) -> String {
        // A relation said with its player first keeps its variables: they still need "for
        // some".
        let all_said = rule.body.iter().all(|literal| {
            self.say_literal(literal, false).is_some() && !self.is_said_relation(literal)
        });
        match rules::existential_variables(rule) {
            Some(variables) if !all_said => format!(" for some {variables}"),
            _ => String::new(),
        }
    }

    /// `{lead} {alternatives}` as one sentence when it fits; otherwise a sentence per rule, the
    /// first led by `lead` and the others by `lead_again` ("The game also ends"), each rule's
    /// conditions grouped when they are long. With `ending`, a rule whose one condition is a
    /// move count reads "after 9 moves".
    fn alternative_lines(
        &self,
        lead: &str,
        lead_again: &str,
        rules: &[&Rule],
        ending: bool,
    ) -> Vec<Line> {
        let ranges: Vec<TextRange> = rules.iter().map(|r| r.range).collect();
        let whole = format!("{lead} {}", self.alternatives(rules, ending));
        if summary::fits(&whole) {
            return vec![Line::new(whole, ranges)];
        }
        rules
            .iter()
            .enumerate()
            .map(|(at, rule)| {
                let lead = if at == 0 { lead } else { lead_again };
                let text = if rule.body.is_empty() {
                    format!("{lead} always")
                } else {
                    self.rule_sentences(lead, &rule.body, &self.existential_tail(rule))
                };
                Line::new(text, vec![rule.range])
            })
            .collect()
    }

    /// "when A, when B, or when C" for rules with one conclusion.
    fn alternatives(&self, rules: &[&Rule], ending: bool) -> String {
        let whens: Vec<String> = rules
            .iter()
            .map(|rule| {
                if rule.body.is_empty() {
                    "always".to_owned()
                } else if let Some(limit) = self.move_limit(rule).filter(|_| ending) {
                    limit
                } else {
                    self.when(rule)
                }
            })
            .collect();
        match whens.as_slice() {
            [one] => one.clone(),
            [init @ .., last] => format!("{}, or {last}", init.join(", ")),
            [] => String::new(),
        }
    }

    /// The object of the game: each player's winning conditions, when short.
    fn object(&self) -> Option<Line> {
        let highest = self.highest_score()?.to_string();
        let table = self.goal_table();
        if let Some(line) = self
            .symmetric_goals(&table)
            .and_then(|symmetric| self.symmetric_object(&symmetric))
        {
            return Some(line);
        }
        let mut wins = Vec::new();
        let mut ranges = Vec::new();
        for (role, scores) in table {
            if let Some((_, rules)) = scores.iter().find(|(s, _)| *s == highest) {
                wins.push(format!("{role} wins {}", self.alternatives(rules, false)));
                ranges.extend(rules.iter().map(|r| r.range));
            }
        }
        let text = format!("To win: {}", wins.join("; "));
        (!wins.is_empty() && text.split_whitespace().count() <= 40).then(|| Line::new(text, ranges))
    }

    fn setup(&self) -> Vec<Line> {
        let mut lines = Vec::new();
        let Some(board) = &self.board else {
            return lines;
        };
        let cells = self.initial_cells(&board.fluent, board.arity);
        if let Some(blank) = &board.blank {
            let ranges = cells.iter().map(|c| c.3).collect();
            lines.push(Line::new(format!("Every cell starts as {blank}"), ranges));
        } else if cells.is_empty() {
            lines.push(Line::new("The board starts empty", Vec::new()));
        } else {
            // Each content: the rows it fills, then its other cells.
            let mut contents: Vec<&str> = Vec::new();
            for (_, _, content, _) in &cells {
                if !contents.contains(&content.as_str()) {
                    contents.push(content);
                }
            }
            for content in contents {
                let mine: Vec<&(String, String, String, TextRange)> =
                    cells.iter().filter(|c| c.2 == content).collect();
                let full_rows: Vec<String> = board
                    .rows
                    .iter()
                    .filter(|row| {
                        board
                            .columns
                            .iter()
                            .all(|column| mine.iter().any(|c| c.0 == *column && c.1 == **row))
                    })
                    .cloned()
                    .collect();
                let mut others: Vec<String> = mine
                    .iter()
                    .filter(|c| !full_rows.contains(&c.1))
                    .map(|c| format!("({}, {})", c.0, c.1))
                    .collect();
                if others.len() > MOST_CELLS_LISTED {
                    let more = others.len() - MOST_CELLS_LISTED;
                    others.truncate(MOST_CELLS_LISTED);
                    others.push(format!("{more} more cells"));
                }
                let mut places = Vec::new();
                match full_rows.as_slice() {
                    [] => {}
                    [row] => places.push(format!("row {row}")),
                    rows => places.push(format!("rows {}", join_list(rows, "and"))),
                }
                if !others.is_empty() {
                    places.push(join_list(&others, "and"));
                }
                let ranges = mine.iter().map(|c| c.3).collect();
                lines.push(Line::new(
                    format!("{content} starts on {}", join_list(&places, "and on")),
                    ranges,
                ));
            }
            lines.push(Line::new("Every other cell starts empty", Vec::new()));
        }
        // The rest of the initial state, as the literal level says it.
        for rule in self.rules_of(keywords::INIT) {
            let Some(fluent) = fluent_of(&rule.head) else {
                continue;
            };
            let is_board = *fluent.name.name == *board.fluent && fluent.arity() == board.arity;
            let is_turn = self
                .turns
                .as_ref()
                .is_some_and(|t| *t.fluent == *fluent.name.name);
            if !is_board && !is_turn && !self.is_counter_init(rule) {
                lines.push(Line::new(
                    rules::read(rule, self.vocabulary).sentence(),
                    vec![rule.range],
                ));
            }
        }
        lines
    }

    fn turns(&self) -> Vec<Line> {
        let mut lines = Vec::new();
        let Some(turns) = &self.turns else {
            return lines;
        };
        let ranges: Vec<TextRange> = self
            .rules
            .iter()
            .filter(|rule| {
                matches!(keyword(&rule.head), Some(keywords::INIT | keywords::NEXT))
                    && fluent_of(&rule.head).is_some_and(|f| *f.name.name == *turns.fluent)
            })
            .map(|rule| rule.range)
            .collect();
        let text = match turns.order.as_slice() {
            [first, second] => format!("Players alternate, {first} first, then {second}"),
            order => format!(
                "Players take turns in the order {}, starting with {}",
                order.join(" → "),
                order[0]
            ),
        };
        lines.push(Line::new(
            format!("{text} ({} says whose turn it is)", turns.fluent),
            ranges,
        ));
        // A constant move legal only off turn: the pass of the player who waits.
        let passes: Vec<&Rule> = self
            .rules_of(keywords::LEGAL)
            .filter(|rule| {
                matches!(rule.head.args.get(1), Some(Term::Constant(_)))
                    && matches!(rule.body.as_slice(), [only] if self.is_turn_test(only))
            })
            .collect();
        if let Some(first) = passes.first() {
            let action = terms::term(&first.head.args[1]);
            lines.push(Line::new(
                format!("The player who is not to move can only {action}, which does nothing"),
                passes.iter().map(|r| r.range).collect(),
            ));
        }
        lines
    }

    /// Whether a legal rule is a pass off turn (said under the turns).
    fn is_pass(&self, rule: &Rule) -> bool {
        self.turns.is_some()
            && matches!(rule.head.args.get(1), Some(Term::Constant(_)))
            && matches!(rule.body.as_slice(), [only] if self.is_turn_test(only))
    }

    fn moves(&self) -> Vec<Line> {
        let mut lines = Vec::new();
        let legal: Vec<&Rule> = self
            .rules_of(keywords::LEGAL)
            .filter(|rule| !self.is_pass(rule))
            .collect();
        if legal.len() > MOST_LITERAL_LINES {
            return lines;
        }
        for rule in legal {
            let [role, action] = rule.head.args.as_slice() else {
                continue;
            };
            let rest: Vec<Literal> = rule
                .body
                .iter()
                .filter(|literal| !self.is_turn_test(literal))
                .cloned()
                .collect();
            let on_turn = rest.len() < rule.body.len();
            let mut rest_text_vars = String::new();
            for literal in &rest {
                rest_text_vars.push_str(&literals::literal(literal, self.vocabulary).text());
            }
            let who = match role {
                Term::Variable(_) if on_turn && !rest_text_vars.contains(&terms::term(role)) => {
                    "The player to move".to_owned()
                }
                _ => terms::term(role),
            };
            let lead = if on_turn && !who.starts_with("The player") {
                format!("On their turn, {who} may {}", terms::term(action))
            } else {
                format!("{who} may {}", terms::term(action))
            };
            let text = if rest.is_empty() {
                lead
            } else {
                self.rule_sentences(&lead, &rest, "")
            };
            lines.push(Line::new(text, vec![rule.range]));
        }
        if let Some(line) = self.find_gravity() {
            lines.push(line);
        }
        if let Some(line) = self.frame() {
            lines.push(line);
        }
        lines
    }

    /// A move naming a column, placed in the row with an open cell below which none is open:
    /// `next(cell(X, Y2, P)) :- does(P, drop(X)), open(X, Y2), succ(Y1, Y2), not open(X, Y1)`.
    fn find_gravity(&self) -> Option<Line> {
        let board = self.board.as_ref()?;
        for rule in self.rules_of(keywords::NEXT) {
            let Some(fluent) = fluent_of(&rule.head) else {
                continue;
            };
            if *fluent.name.name != *board.fluent {
                continue;
            }
            let [Term::Variable(column), Term::Variable(row), ..] = fluent.args.as_slice() else {
                continue;
            };
            let Some(action) = rule.body.iter().find_map(|literal| match literal {
                Literal::Sentence(s) if keyword(s) == Some(keywords::DOES) => match s.args.get(1) {
                    Some(Term::Function(action)) => Some(action),
                    _ => None,
                },
                _ => None,
            }) else {
                continue;
            };
            let names_column_only =
                matches!(action.args.as_slice(), [Term::Variable(v)] if v.name == column.name);
            if !names_column_only {
                continue;
            }
            // succ(Below, Row) with "not open(Column, Below)".
            let below = rule.body.iter().find_map(|literal| match literal {
                Literal::Sentence(s)
                    if self.statics.contains_key(&*s.name.name) && s.arity() == 2 =>
                {
                    match s.args.as_slice() {
                        [Term::Variable(below), Term::Variable(r)] if r.name == row.name => {
                            Some(below.name.clone())
                        }
                        _ => None,
                    }
                }
                _ => None,
            });
            let Some(below) = below else {
                continue;
            };
            let closed_below = rule.body.iter().any(|literal| match literal {
                Literal::Not { inner, .. } => match inner.as_ref() {
                    Literal::Sentence(s) => {
                        let mut has = (false, false);
                        s.for_each_variable(&mut |v| {
                            has.0 |= v.name == column.name;
                            has.1 |= v.name == below;
                        });
                        has == (true, true)
                    }
                    _ => false,
                },
                _ => false,
            });
            if closed_below {
                return Some(Line::new(
                    format!(
                        "A move {} names a column only: the piece falls to the lowest open cell of that column",
                        terms::compound(action)
                    ),
                    vec![rule.range],
                ));
            }
        }
        None
    }

    /// The frame axiom of the board: a rule keeping a cell as it is.
    fn frame(&self) -> Option<Line> {
        let board = self.board.as_ref()?;
        let rule = self.rules_of(keywords::NEXT).find(|rule| {
            fluent_of(&rule.head).is_some_and(|fluent| {
                *fluent.name.name == *board.fluent
                    && rule.body.iter().any(|literal| {
                        is_true_sentence(literal)
                            .is_some_and(|t| terms::compound(t) == terms::compound(fluent))
                    })
            })
        })?;
        Some(Line::new(
            "A cell keeps what it holds from one turn to the next unless a move changes it",
            vec![rule.range],
        ))
    }

    fn ending(&self) -> Vec<Line> {
        let terminal: Vec<&Rule> = self.rules_of(keywords::TERMINAL).collect();
        if terminal.is_empty() {
            return vec![Line::new(
                "No rule ends the game: it never ends",
                Vec::new(),
            )];
        }
        self.alternative_lines("The game ends", "The game also ends", &terminal, true)
    }

    fn scoring(&self) -> Vec<Line> {
        let highest = self.highest_score();
        let table = self.goal_table();
        let mut lines = Vec::new();
        if let Some(symmetric) = self.symmetric_goals(&table) {
            lines = self.symmetric_scoring(&symmetric);
        } else {
            for (role, scores) in table {
                for (score, rules) in scores {
                    let verb = symmetry::score_verb(&score, highest);
                    lines.extend(self.alternative_lines(
                        &format!("{role} {verb}"),
                        &format!("{role} also {verb}"),
                        &rules,
                        false,
                    ));
                }
            }
        }
        if !lines.is_empty() {
            lines.insert(0, Line::new("Scores count when the game ends", Vec::new()));
        }
        lines
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::gdl::gdl_rules;
    use crate::{RootDatabase, SourceFile, Syntax};

    /// The rulebook of a KIF text, as one string of its sentences.
    pub(super) fn book(text: &str) -> String {
        let db = RootDatabase::default();
        let file = SourceFile::new(
            &db,
            "game.kif".into(),
            Syntax::GdlKif,
            Arc::from(text),
            None,
        );
        let rules = &gdl_rules(&db, file).rules;
        let literal = super::super::explain_rules(rules);
        rulebook("game", text, rules, &Vocabulary::new(rules), &literal, &[])
            .sentences()
            .collect::<Vec<_>>()
            .join("\n")
    }

    const ROLES: &str = "(role red) (role blue)";

    #[test]
    fn a_board_from_the_domains_of_base() {
        let text = format!(
            "{ROLES} (col 1) (col 2) (col 3) (col 4) (row 1) (row 2)
             (<= (base (cell ?x ?y ?p)) (col ?x) (row ?y) (role ?p))"
        );
        let said = book(&text);
        assert!(said.contains("on a board 4 wide and 2 high"), "{said}");
        assert!(said.contains("hold a piece of red or blue"), "{said}");
        assert!(said.contains("The board starts empty."), "{said}");
    }

    #[test]
    fn turns_from_a_control_cycle() {
        let text = format!(
            "{ROLES} (init (control blue))
             (<= (next (control red)) (true (control blue)))
             (<= (next (control blue)) (true (control red)))
             (<= (legal red noop) (true (control blue)))"
        );
        let said = book(&text);
        assert!(
            said.contains("Players alternate, blue first, then red"),
            "{said}"
        );
        assert!(said.contains("can only noop"), "{said}");
        // A cycle that does not reach every player is no turn order.
        let broken = format!(
            "{ROLES} (role green) (init (control blue))
             (<= (next (control red)) (true (control blue)))
             (<= (next (control blue)) (true (control red)))"
        );
        assert!(!book(&broken).contains("alternate"), "{}", book(&broken));
    }

    #[test]
    fn lines_of_cells_and_relations_of_lines() {
        let text = format!(
            "{ROLES} (index 1) (index 2) (index 3) (succ 1 2) (succ 2 3)
             (init (cell 1 1 b)) (init (cell 1 2 b)) (init (cell 2 1 b)) (init (cell 2 2 b))
             (<= (row ?p) (true (cell 1 ?y ?p)) (true (cell 2 ?y ?p)) (true (cell 3 ?y ?p)))
             (<= (line ?p) (row ?p))
             (<= (goal red 100) (line red))
             (<= (goal red 0) (not (line red)))
             (<= terminal (line red))"
        );
        let said = book(&text);
        assert!(
            said.contains("red wins (100) when red has three pieces in a line"),
            "{said}"
        );
        assert!(
            said.contains("red loses (0) when red does not have three pieces in a line"),
            "{said}"
        );
        // Two cells are not a line.
        let short = format!(
            "{ROLES} (init (cell 1 1 b)) (init (cell 1 2 b)) (init (cell 2 1 b)) (init (cell 2 2 b))
             (<= (pair ?p) (true (cell 1 ?y ?p)) (true (cell 2 ?y ?p)))
             (<= terminal (pair red))"
        );
        assert!(!book(&short).contains("in a line"), "{}", book(&short));
    }

    #[test]
    fn gravity_from_succ_under_an_open_cell() {
        let text = format!(
            "{ROLES} (x 1) (x 2) (y 1) (y 2) (y 3) (succ 1 2) (succ 2 3)
             (<= (base (cell ?x ?y ?p)) (x ?x) (y ?y) (role ?p))
             (<= (open ?x ?y) (x ?x) (y ?y) (not (true (cell ?x ?y red))))
             (<= (next (cell ?x ?y2 ?p)) (does ?p (drop ?x)) (open ?x ?y2) (succ ?y1 ?y2) (not (open ?x ?y1)))"
        );
        let said = book(&text);
        assert!(
            said.contains("falls to the lowest open cell of that column"),
            "{said}"
        );
        // Without the closed cell below, nothing says where the piece lands.
        let text = text.replace("(not (open ?x ?y1))", "");
        assert!(!book(&text).contains("lowest"), "{}", book(&text));
    }

    #[test]
    fn some_cell_and_rows_reached() {
        let text = format!(
            "{ROLES} (index 1) (index 2)
             (init (cell 1 1 b)) (init (cell 1 2 b)) (init (cell 2 1 b)) (init (cell 2 2 b))
             (<= open (true (cell ?m ?n b)))
             (<= redHome (index ?x) (true (cell ?x 2 red)))
             (<= terminal (not open))
             (<= terminal redHome)"
        );
        let said = book(&text);
        assert!(said.contains("when no cell holds b"), "{said}");
        assert!(said.contains("when red has a piece on row 2"), "{said}");
    }

    #[test]
    fn successors_empty_cells_and_pieces_in_moves() {
        let text = format!(
            "{ROLES} (index 1) (index 2) (index 3) (succ 1 2) (succ 2 3)
             (<= (base (cell ?x ?y ?p)) (index ?x) (index ?y) (role ?p))
             (<= (free ?x ?y) (index ?x) (index ?y)
                 (not (true (cell ?x ?y red))) (not (true (cell ?x ?y blue))))
             (<= (legal red (step ?x ?y1 ?y2))
                 (true (cell ?x ?y1 red)) (succ ?y1 ?y2) (free ?x ?y2))"
        );
        let said = book(&text);
        assert!(
            said.contains(
                "red may step (X, Y1, Y2) when red has a piece on (X, Y1), Y2 comes right after Y1 and (X, Y2) is empty"
            ),
            "{said}"
        );
        // A relation that cycles is no order; one testing a single player is no emptiness.
        let text = text
            .replace("(succ 2 3)", "(succ 2 3) (succ 3 1)")
            .replace("(not (true (cell ?x ?y blue)))", "");
        let said = book(&text);
        assert!(!said.contains("comes right after"), "{said}");
        assert!(!said.contains("is empty"), "{said}");
    }

    #[test]
    fn names_written_as_code_are_words() {
        assert_eq!(
            plain_names("when boardOpen does not hold"),
            "when board open does not hold"
        );
        assert_eq!(plain_names("piece_count (X)"), "piece count (X)");
        assert_eq!(plain_names("TotalScore is 3"), "Totalscore is 3");
        assert_eq!(
            plain_names("see `ludeme explain --literal`"),
            "see `ludeme explain --literal`"
        );
    }

    #[test]
    fn a_long_rule_is_said_in_groups_without_losing_a_condition() {
        // Castling as chess writes it: eleven conditions, too many for one sentence.
        let text = "(role white) (role black) (file a) (file b) (file c) (file d) (file e)
             (rank 1) (rank 2) (piece wr) (piece wk) (piece b)
             (<= (base (cell ?x ?y ?p)) (file ?x) (rank ?y) (piece ?p))
             (<= (legal white (castle e 1 c 1))
                 (true (cell a 1 wr)) (true (cell b 1 b)) (true (cell c 1 b)) (true (cell d 1 b))
                 (true (cell e 1 wk)) (not (true (moved wr a 1))) (not (true (moved wk e 1)))
                 (not (inCheck white)) (not (threatened white d 1 e 1))
                 (not (threatened white c 1 e 1)) (not (threatened white b 1 e 1))
                 (not (threatened white a 1 e 1)))
             (<= (inCheck ?p) (role ?p) (true (cell a 2 ?p)))
             (<= (threatened ?p ?x ?y ?u ?v) (role ?p) (true (cell ?x ?y ?u)) (rank ?v))";
        let said = book(text);
        for sentence in said.lines().flat_map(|line| line.split(". ")) {
            assert!(
                sentence.split_whitespace().count() <= crate::rulebook::LONGEST_SENTENCE,
                "{sentence}"
            );
        }
        for condition in [
            "On the board: cell (a, 1, wr), cell (b, 1, b), cell (c, 1, b), cell (d, 1, b) and cell (e, 1, wk) hold.",
            "In the rest of the state: neither moved (wr, a, 1) nor moved (wk, e, 1) holds",
            "white is not in check, white is not threatened (d, 1, e, 1), white is not threatened (c, 1, e, 1), white is not threatened (b, 1, e, 1) and white is not threatened (a, 1, e, 1)",
        ] {
            assert!(said.contains(condition), "{condition:?} not in {said}");
        }
        assert!(!said.contains("more words"), "{said}");
    }

    #[test]
    fn a_full_board_under_gravity() {
        let text = format!(
            "{ROLES} (x 1) (x 2) (y 1) (y 2) (succ 1 2)
             (<= (base (cell ?x ?y ?p)) (x ?x) (y ?y) (role ?p))
             (<= (cellOpen ?x ?y) (x ?x) (y ?y) (not (true (cell ?x ?y red))) (not (true (cell ?x ?y blue))))
             (<= (next (cell ?x ?y2 ?p)) (does ?p (drop ?x)) (cellOpen ?x ?y2) (succ ?y1 ?y2) (not (cellOpen ?x ?y1)))
             (<= (columnOpen ?x) (cellOpen ?x 2))
             (<= boardOpen (x ?x) (columnOpen ?x))
             (<= (legal red (drop ?x)) (columnOpen ?x))
             (<= terminal (not boardOpen))"
        );
        let said = book(&text);
        assert!(
            said.contains("The game ends when the board is full."),
            "{said}"
        );
        assert!(
            said.contains("red may drop (X) when column X is not full"),
            "{said}"
        );
        // Without gravity, an open cell of row 2 is only that.
        let text = text.replace("(not (cellOpen ?x ?y1))", "");
        let said = book(&text);
        assert!(
            said.contains("The game ends when every cell of row 2 is occupied."),
            "{said}"
        );
    }
}
