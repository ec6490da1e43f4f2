//! Binding: the written tree matched against the schema. Each list or word is resolved to its
//! schema entry (by its name and what its place accepts), and each argument is assigned to a
//! parameter by type. Whatever does not fit becomes a [`Finding`] with a range; the checks turn
//! findings into diagnostics, and the rest of the tree is still bound, so one mistake does not
//! hide the others.

use crate::TextRange;
use crate::ludi::schema::{self, Accepts, Form, Kind, LUDEMES, Ludeme, Namespace};
use crate::ludi::tree::{Atom, AtomKind, Item, List};

/// A ludeme of the file, bound to its schema entry.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Node {
    /// Index of the entry in [`LUDEMES`].
    pub entry: usize,
    pub range: TextRange,
    /// The range of its name (the list's head, or the word).
    pub name_range: TextRange,
    /// The kind its place expects, which is what the children of `and`/`or`/`not` must be.
    pub context: Option<Kind>,
    pub args: Vec<Arg>,
}

/// An argument and the parameter it was assigned to.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Arg {
    pub param: usize,
    pub value: Value,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Value {
    Node(Node),
    Integer {
        value: i64,
        range: TextRange,
    },
    /// A decimal or integer where any number is allowed, as written.
    Number {
        text: String,
        range: TextRange,
    },
    Text {
        text: String,
        range: TextRange,
    },
    Cell {
        text: String,
        range: TextRange,
    },
    Name {
        text: String,
        range: TextRange,
        use_: NameUse,
    },
}

/// How a name is used: what it names and whether this is its declaration.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct NameUse {
    pub namespace: Namespace,
    pub declares: bool,
    /// `All` stands for every player here.
    pub all_players: bool,
}

impl Value {
    pub fn range(&self) -> TextRange {
        match self {
            Value::Node(node) => node.range,
            Value::Integer { range, .. }
            | Value::Number { range, .. }
            | Value::Text { range, .. }
            | Value::Cell { range, .. }
            | Value::Name { range, .. } => *range,
        }
    }

    pub fn node(&self) -> Option<&Node> {
        match self {
            Value::Node(node) => Some(node),
            _ => None,
        }
    }

    pub fn integer(&self) -> Option<i64> {
        match self {
            Value::Integer { value, .. } => Some(*value),
            _ => None,
        }
    }

    /// The text of a name, cell, string or number.
    pub fn text(&self) -> Option<&str> {
        match self {
            Value::Number { text, .. }
            | Value::Text { text, .. }
            | Value::Cell { text, .. }
            | Value::Name { text, .. } => Some(text),
            Value::Integer { .. } | Value::Node(_) => None,
        }
    }
}

impl Node {
    pub fn ludeme(&self) -> &'static Ludeme {
        &LUDEMES[self.entry]
    }

    pub fn name(&self) -> &'static str {
        self.ludeme().name
    }

    /// The arguments bound to the parameter called `param`.
    pub fn values<'a>(&'a self, param: &str) -> impl Iterator<Item = &'a Value> + 'a {
        let index = self.ludeme().params.iter().position(|p| p.name == param);
        self.args
            .iter()
            .filter(move |arg| Some(arg.param) == index)
            .map(|arg| &arg.value)
    }

    pub fn value(&self, param: &str) -> Option<&Value> {
        self.values(param).next()
    }

    /// The child ludeme bound to `param`, if any.
    pub fn child(&self, param: &str) -> Option<&Node> {
        self.value(param).and_then(Value::node)
    }

    /// Every node of this subtree, this one first.
    pub fn walk<'a>(&'a self, visit: &mut impl FnMut(&'a Node)) {
        visit(self);
        for arg in &self.args {
            if let Value::Node(child) = &arg.value {
                child.walk(visit);
            }
        }
    }

    /// Every argument of this subtree with the node it belongs to.
    pub fn walk_args<'a>(&'a self, visit: &mut impl FnMut(&'a Node, &'a Arg)) {
        for arg in &self.args {
            visit(self, arg);
            if let Value::Node(child) = &arg.value {
                child.walk_args(visit);
            }
        }
    }
}

/// Something in the written tree that does not fit the schema.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Finding {
    /// A name that is no ludeme the schema knows (and not a name allowed at this place).
    Unknown {
        range: TextRange,
        name: String,
        /// Entry index of the enclosing ludeme (`None` at the top level).
        parent: Option<usize>,
        suggestions: Vec<&'static str>,
    },
    /// A known ludeme where its parent does not accept it.
    Misplaced {
        range: TextRange,
        entry: usize,
        parent: Option<usize>,
    },
    /// An argument of a type no parameter of the parent takes, or out of range.
    WrongType {
        range: TextRange,
        parent: usize,
        problem: String,
    },
    /// A list-only ludeme written as a word, or a word written as a list.
    WrongForm { range: TextRange, entry: usize },
    /// More arguments than a parameter takes.
    TooMany {
        range: TextRange,
        parent: usize,
        param: usize,
    },
    /// A second ludeme where one is allowed.
    Duplicate {
        range: TextRange,
        parent: Option<usize>,
        param: usize,
        first: TextRange,
    },
    /// Fewer arguments than a parameter needs: `range` is the parent's name.
    Missing {
        range: TextRange,
        parent: usize,
        param: usize,
    },
    /// A list that does not start with a name.
    NoHead { range: TextRange },
    /// A list nested deeper than [`crate::rules::MAX_NESTING_DEPTH`], left out of the tree
    /// (`range` is its `(`): `syntax/too-deep`.
    TooDeep { range: TextRange },
}

/// The bound game and the findings.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Bound {
    pub game: Option<Node>,
    pub findings: Vec<Finding>,
    /// The file has no `(game ...)` (and no syntax error that could hide one).
    pub no_game: bool,
}

/// Binds the top-level forms of a file: one `(game ...)` is expected. When the file has a
/// syntax error, the structure is not judged (what is misplaced, missing, duplicated or one too
/// many), because the parser's recovery may have moved things: a stray `)` closes the game early
/// and leaves its later parts at the top level, a missing `)` pulls the following parts into the
/// unclosed list. What is wrong in itself (an unknown name, a wrong type) is still reported.
pub fn bind(items: &[Item], syntax_error: bool) -> Bound {
    let mut binder = Binder {
        findings: Vec::new(),
        declared: declarations(items),
        syntax_error,
    };
    let game_entry = entry_index(schema::game());
    let mut game: Option<Node> = None;
    for item in items {
        let is_game = item.name() == Some(schema::game().name) && matches!(item, Item::List(_));
        match item {
            Item::List(list) if is_game => {
                if let Some(first) = &game {
                    binder.findings.push(Finding::Duplicate {
                        range: item.name_range(),
                        parent: None,
                        param: 0,
                        first: first.name_range,
                    });
                } else {
                    game = Some(binder.bind_list(game_entry, list, None));
                }
            }
            _ if syntax_error => {}
            _ => binder.stray_top_level(item),
        }
    }
    Bound {
        no_game: game.is_none() && !syntax_error,
        game,
        findings: binder.findings,
    }
}

fn entry_index(ludeme: &'static Ludeme) -> usize {
    LUDEMES
        .iter()
        .position(|entry| std::ptr::eq(entry, ludeme))
        .expect("the entry is in the table")
}

struct Binder {
    findings: Vec<Finding>,
    /// The names the game declares, by namespace: a name argument goes to a parameter of its
    /// own namespace (`(connect North South Stone)`: two regions, then a piece).
    declared: Vec<(Namespace, String)>,
    /// The file has a syntax error somewhere.
    syntax_error: bool,
}

/// The players, piece types and regions declared in the first `(game ...)`, read off the
/// written tree before binding.
fn declarations(items: &[Item]) -> Vec<(Namespace, String)> {
    let mut declared = Vec::new();
    let game = items.iter().find_map(|item| match item {
        Item::List(list) if item.name() == Some(schema::game().name) => Some(list),
        _ => None,
    });
    let part = |list: &'_ List, name: &str| -> Vec<List> {
        list.items
            .iter()
            .filter_map(|item| match item {
                Item::List(inner) if item.name() == Some(name) => Some(inner.clone()),
                _ => None,
            })
            .collect()
    };
    let Some(game) = game else { return declared };
    for players in part(game, "players") {
        for item in &players.items {
            if let Some(name) = item.name() {
                declared.push((Namespace::Player, name.to_owned()));
            }
        }
    }
    for pieces in part(game, "pieces") {
        for item in &pieces.items {
            if let (Item::List(_), Some(name)) = (item, item.name()) {
                declared.push((Namespace::Piece, name.to_owned()));
            }
        }
    }
    for board in part(game, "board") {
        for regions in part(&board, "regions") {
            for item in &regions.items {
                if let (Item::List(_), Some(name)) = (item, item.name()) {
                    declared.push((Namespace::Region, name.to_owned()));
                }
            }
        }
    }
    declared
}

/// How an item matches a parameter's accepted types.
enum Match {
    /// A ludeme entry (by index) fits.
    Entry(usize),
    /// A literal or a name fits.
    Atom,
    /// No.
    No,
}

impl Binder {
    /// A top-level item other than the game: a known ludeme is misplaced, anything else unknown.
    fn stray_top_level(&mut self, item: &Item) {
        let Some(name) = item.name() else {
            match item {
                Item::List(list) => self.findings.push(Finding::NoHead { range: list.range }),
                Item::Atom(atom) => self.findings.push(Finding::Unknown {
                    range: atom.range,
                    name: atom.text.clone(),
                    parent: None,
                    suggestions: schema::suggestions(&atom.text, [schema::game().name]),
                }),
            }
            return;
        };
        if let Some(ludeme) = known_reading(name, item) {
            self.findings.push(Finding::Misplaced {
                range: item.name_range(),
                entry: entry_index(ludeme),
                parent: None,
            });
        } else {
            self.findings.push(Finding::Unknown {
                range: item.name_range(),
                name: name.to_owned(),
                parent: None,
                suggestions: schema::suggestions(name, [schema::game().name]),
            });
        }
    }

    /// Binds `list` as an instance of `entry`. For records the head is the first argument.
    fn bind_list(&mut self, entry: usize, list: &List, context: Option<Kind>) -> Node {
        let ludeme = &LUDEMES[entry];
        let head_item = list.head.clone().map(Item::Atom);
        let items: Vec<&Item> = if ludeme.is_record() {
            head_item.iter().chain(list.items.iter()).collect()
        } else {
            list.items.iter().collect()
        };
        let name_range = list.head.as_ref().map_or(list.range, |head| head.range);
        let mut node = Node {
            entry,
            range: list.range,
            name_range,
            context,
            args: Vec::new(),
        };
        self.bind_args(&mut node, &items);
        node
    }

    /// Assigns `items` to the parameters of `node`, reporting what does not fit.
    fn bind_args(&mut self, node: &mut Node, items: &[&Item]) {
        let ludeme = node.ludeme();
        let mut counts = vec![0usize; ludeme.params.len()];
        let mut firsts: Vec<Option<TextRange>> = vec![None; ludeme.params.len()];
        // The kind a `SameKind` parameter takes: what this logic node's place expects.
        let same = node.context;
        // After an argument that fits nowhere, a "missing" report would only repeat it.
        let mut unplaced = false;
        for &item in items {
            let Some((param, found)) = self.assign(ludeme, &counts, item, same) else {
                self.unplaced(node, item, &counts, &firsts, same);
                unplaced = true;
                continue;
            };
            counts[param] += 1;
            firsts[param].get_or_insert(item.range());
            if let Some(value) = self.value(node, param, item, found, same) {
                node.args.push(Arg { param, value });
            }
        }
        if !unplaced && !self.syntax_error {
            self.missing(node, &counts);
        }
    }

    /// The first parameter of `ludeme` with room left (`counts` are the arguments it has)
    /// that `item` fits. Apart from [`Binder::bind_args`], which is on the recursion along the
    /// nesting of lists, so that each level of it costs less stack.
    #[inline(never)]
    fn assign(
        &self,
        ludeme: &Ludeme,
        counts: &[usize],
        item: &Item,
        same: Option<Kind>,
    ) -> Option<(usize, Match)> {
        // A keyword goes to the parameter that takes it, even after one that would take the
        // word as a name (`(in-a-row 4 d-nbors)`: an adjacency, not a piece type).
        let open = || (0..ludeme.params.len()).filter(|&p| counts[p] < ludeme.params[p].max);
        let found = |p: usize| self.matches(ludeme.params[p].accepts, item, same);
        open()
            .find_map(|p| match found(p) {
                found @ Match::Entry(_) => Some((p, found)),
                _ => None,
            })
            .or_else(|| {
                open().find_map(|p| match found(p) {
                    Match::No => None,
                    found => Some((p, found)),
                })
            })
    }

    /// Reports the parameters of `node` given fewer arguments than they need.
    #[inline(never)]
    fn missing(&mut self, node: &Node, counts: &[usize]) {
        for (param, spec) in node.ludeme().params.iter().enumerate() {
            if counts[param] < spec.min {
                self.findings.push(Finding::Missing {
                    range: node.name_range,
                    parent: node.entry,
                    param,
                });
            }
        }
    }

    /// Whether `name` is declared, but not in `namespace`.
    fn declared_elsewhere(&self, name: &str, namespace: Namespace) -> bool {
        let mut spaces = self
            .declared
            .iter()
            .filter(|(_, declared)| declared == name);
        let mut any = false;
        let in_namespace = spaces.any(|(space, _)| {
            any = true;
            *space == namespace
        });
        any && !in_namespace
    }

    /// Whether `item` fits one of `accepts` (inside a place expecting `same`).
    fn matches(&self, accepts: &[Accepts], item: &Item, same: Option<Kind>) -> Match {
        for &accept in accepts {
            match (accept, item) {
                (Accepts::Integer { .. }, Item::Atom(atom)) if atom.kind == AtomKind::Integer => {
                    return Match::Atom;
                }
                (Accepts::Number, Item::Atom(atom))
                    if matches!(atom.kind, AtomKind::Integer | AtomKind::Float) =>
                {
                    return Match::Atom;
                }
                (Accepts::Text, Item::Atom(atom)) if atom.kind == AtomKind::String => {
                    return Match::Atom;
                }
                (Accepts::Cell, Item::Atom(atom)) if atom.kind == AtomKind::Cell => {
                    return Match::Atom;
                }
                (Accepts::Part(_) | Accepts::Kind(_) | Accepts::SameKind, _) => {
                    let Some(name) = item.name() else { continue };
                    if let Some(ludeme) = schema::named(name)
                        .find(|ludeme| schema::accepts_ludeme(accept, ludeme, same))
                    {
                        return Match::Entry(entry_index(ludeme));
                    }
                }
                _ => {}
            }
        }
        // Names and records only where no keyword fits, so that a keyword is never taken for
        // a name.
        for &accept in accepts {
            match (accept, item) {
                (Accepts::Declares(_) | Accepts::PlayerType, Item::Atom(atom))
                    if atom.kind == AtomKind::Symbol =>
                {
                    return Match::Atom;
                }
                (Accepts::Refers(namespace), Item::Atom(atom))
                    if atom.kind == AtomKind::Symbol
                        && !self.declared_elsewhere(&atom.text, namespace) =>
                {
                    return Match::Atom;
                }
                // A list headed by a keyword is that keyword misplaced, never a record; except
                // advisors, which are named after what they measure (`(in-a-row 1.0)`).
                (Accepts::Record(name), Item::List(list))
                    if list.head.as_ref().is_some_and(|head| {
                        head.kind == AtomKind::Symbol
                            && (schema::named(&head.text).next().is_none()
                                || schema::record(name).is_some_and(|r| {
                                    matches!(
                                        r.form,
                                        Form::Record {
                                            namespace: Namespace::Advisor,
                                            ..
                                        }
                                    )
                                }))
                    }) =>
                {
                    if let Some(record) = schema::record(name) {
                        return Match::Entry(entry_index(record));
                    }
                }
                _ => {}
            }
        }
        Match::No
    }

    /// The bound value of `item`, assigned to `param` of `node`.
    fn value(
        &mut self,
        node: &Node,
        param: usize,
        item: &Item,
        found: Match,
        same: Option<Kind>,
    ) -> Option<Value> {
        let spec = &node.ludeme().params[param];
        match (found, item) {
            (Match::Entry(entry), Item::List(list)) => {
                let ludeme = &LUDEMES[entry];
                if ludeme.form == Form::Word {
                    self.findings.push(Finding::WrongForm {
                        range: list.range,
                        entry,
                    });
                }
                // A logic node passes on the kind its own place expects.
                let context = match ludeme.kind {
                    Kind::Logic => same.or_else(|| accepted_kind(spec.accepts)),
                    _ => None,
                };
                Some(Value::Node(self.bind_list(entry, list, context)))
            }
            (Match::Entry(entry), Item::Atom(atom)) => Some(self.word_value(entry, atom)),
            (Match::Atom, Item::Atom(atom)) => self.atom_value(node, spec.accepts, atom),
            _ => None,
        }
    }

    /// The ludeme `entry` written as the word `atom`. Apart from [`Binder::value`], which is
    /// on the recursion along the nesting of lists, so that each level of it costs less stack.
    #[inline(never)]
    fn word_value(&mut self, entry: usize, atom: &Atom) -> Value {
        let ludeme = &LUDEMES[entry];
        if ludeme.form == Form::List {
            self.findings.push(Finding::WrongForm {
                range: atom.range,
                entry,
            });
        }
        let mut word = Node {
            entry,
            range: atom.range,
            name_range: atom.range,
            context: None,
            args: Vec::new(),
        };
        // A list ludeme written as a word still needs its arguments.
        if ludeme.form == Form::List {
            return Value::Node(word);
        }
        self.bind_args(&mut word, &[]);
        Value::Node(word)
    }

    /// The value of `atom` for a parameter that `accepts` it. Not inlined, as
    /// [`Binder::word_value`].
    #[inline(never)]
    fn atom_value(&mut self, node: &Node, accepts: &[Accepts], atom: &Atom) -> Option<Value> {
        let range = atom.range;
        let text = atom.text.clone();
        for &accept in accepts {
            match accept {
                Accepts::Integer { min } if atom.kind == AtomKind::Integer => {
                    return match atom.integer() {
                        Some(value) if value >= min => Some(Value::Integer { value, range }),
                        Some(_) => {
                            self.findings.push(Finding::WrongType {
                                range,
                                parent: node.entry,
                                problem: format!(
                                    "`{text}` is too small here: {}",
                                    accept.describe()
                                ),
                            });
                            None
                        }
                        None => {
                            self.findings.push(Finding::WrongType {
                                range,
                                parent: node.entry,
                                problem: format!("`{text}` is too large a number"),
                            });
                            None
                        }
                    };
                }
                Accepts::Number if matches!(atom.kind, AtomKind::Integer | AtomKind::Float) => {
                    return Some(Value::Number { text, range });
                }
                Accepts::Text if atom.kind == AtomKind::String => {
                    return Some(Value::Text { text, range });
                }
                Accepts::Cell if atom.kind == AtomKind::Cell => {
                    return Some(Value::Cell { text, range });
                }
                Accepts::Declares(namespace) | Accepts::Refers(namespace)
                    if atom.kind == AtomKind::Symbol =>
                {
                    let declares = matches!(accept, Accepts::Declares(_));
                    let use_ = NameUse {
                        namespace,
                        declares,
                        all_players: false,
                    };
                    return Some(Value::Name { text, range, use_ });
                }
                Accepts::PlayerType if atom.kind == AtomKind::Symbol => {
                    let use_ = NameUse {
                        namespace: Namespace::Player,
                        declares: false,
                        all_players: true,
                    };
                    return Some(Value::Name { text, range, use_ });
                }
                _ => {}
            }
        }
        None
    }

    /// Reports an item no parameter of `node` could take. Not inlined, as
    /// [`Binder::word_value`].
    #[inline(never)]
    fn unplaced(
        &mut self,
        node: &Node,
        item: &Item,
        counts: &[usize],
        firsts: &[Option<TextRange>],
        same: Option<Kind>,
    ) {
        let ludeme = node.ludeme();
        let range = item.name_range();
        // A parameter that would take it but is full: a duplicate or one argument too many.
        let full = (0..ludeme.params.len()).find(|&p| {
            counts[p] >= ludeme.params[p].max
                && !matches!(
                    self.matches(ludeme.params[p].accepts, item, same),
                    Match::No
                )
        });
        if let Some(param) = full {
            if self.syntax_error {
                return;
            }
            let takes_ludemes = ludeme.params[param]
                .accepts
                .iter()
                .any(|a| matches!(a, Accepts::Part(_) | Accepts::Kind(_) | Accepts::Record(_)));
            let finding = match firsts[param] {
                Some(first) if takes_ludemes && ludeme.params[param].max == 1 => {
                    Finding::Duplicate {
                        range,
                        parent: Some(node.entry),
                        param,
                        first,
                    }
                }
                _ => Finding::TooMany {
                    range: item.range(),
                    parent: node.entry,
                    param,
                },
            };
            self.findings.push(finding);
            return;
        }
        let Some(name) = item.name() else {
            let finding = match item {
                Item::List(list) => Finding::NoHead { range: list.range },
                Item::Atom(atom) => Finding::WrongType {
                    range: atom.range,
                    parent: node.entry,
                    problem: format!("{} `{}` has no place here", describe_atom(atom), atom.text),
                },
            };
            self.findings.push(finding);
            return;
        };
        if let Some(known) = known_reading(name, item) {
            if !self.syntax_error {
                self.findings.push(Finding::Misplaced {
                    range,
                    entry: entry_index(known),
                    parent: Some(node.entry),
                });
            }
            return;
        }
        let keywords_here: Vec<&'static str> = ludeme
            .params
            .iter()
            .flat_map(|param| param.accepts.iter())
            .flat_map(|&accept| {
                LUDEMES
                    .iter()
                    .filter(move |l| schema::accepts_ludeme(accept, l, same))
            })
            .filter(|l| !l.is_record())
            .map(|l| l.name)
            .collect();
        let mut suggestions = schema::suggestions(name, keywords_here.iter().copied());
        if suggestions.is_empty() {
            suggestions = schema::suggestions(
                name,
                LUDEMES.iter().filter(|l| !l.is_record()).map(|l| l.name),
            );
        }
        if keywords_here.is_empty() && matches!(item, Item::Atom(_)) {
            self.findings.push(Finding::WrongType {
                range,
                parent: node.entry,
                problem: format!("the name `{name}` has no place here"),
            });
        } else {
            self.findings.push(Finding::Unknown {
                range,
                name: name.to_owned(),
                parent: Some(node.entry),
                suggestions,
            });
        }
    }
}

/// The schema entry `name` most likely means as written: a list reads as a list ludeme, a word
/// as a word (`(empty to)` is the condition, `empty` the cell content).
fn known_reading(name: &str, item: &Item) -> Option<&'static Ludeme> {
    let as_written = |ludeme: &&Ludeme| match item {
        Item::List(_) => ludeme.form != Form::Word,
        Item::Atom(_) => ludeme.form != Form::List,
    };
    schema::named(name)
        .find(as_written)
        .or_else(|| schema::named(name).next())
}

/// The kind of ludeme a parameter takes, when it takes one kind (for `and`/`or`/`not`).
fn accepted_kind(accepts: &[Accepts]) -> Option<Kind> {
    accepts.iter().find_map(|accept| match accept {
        Accepts::Kind(kind) => Some(*kind),
        _ => None,
    })
}

pub fn describe_atom(atom: &Atom) -> &'static str {
    match atom.kind {
        AtomKind::Symbol => "the name",
        AtomKind::Operator => "the operator",
        AtomKind::Integer => "the integer",
        AtomKind::Float => "the number",
        AtomKind::Cell => "the cell",
        AtomKind::String => "the string",
    }
}
