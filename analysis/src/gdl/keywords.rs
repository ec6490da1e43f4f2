//! The GDL keywords as data: their arity, role and meaning. The checker, hovers, completion and
//! the English renderer all read this one table.

/// Where a keyword may stand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeywordKind {
    /// A relation with a fixed meaning to the game manager (`role`, `legal`, ...).
    Relation,
    /// A connective of rule bodies (`not`, `distinct`, `or`), never a relation or a term.
    Connective,
    /// The rule arrow `<=`.
    Arrow,
}

#[derive(Debug)]
pub struct Keyword {
    pub name: &'static str,
    /// The number of arguments; `None` for `or`, which takes any number.
    pub arity: Option<usize>,
    pub kind: KeywordKind,
    /// GDL-II (games with imperfect information) rather than base GDL.
    pub gdl_ii: bool,
    /// What it means, in one or two sentences for a hover.
    pub meaning: &'static str,
    pub example: &'static str,
}

const fn relation(
    name: &'static str,
    arity: usize,
    meaning: &'static str,
    example: &'static str,
) -> Keyword {
    Keyword {
        name,
        arity: Some(arity),
        kind: KeywordKind::Relation,
        gdl_ii: false,
        meaning,
        example,
    }
}

pub const KEYWORDS: &[Keyword] = &[
    relation(
        "role",
        1,
        "declares a player of the game; roles are facts, never defined by rules",
        "(role xplayer)",
    ),
    relation(
        "init",
        1,
        "a fluent that is true in the initial state",
        "(init (control xplayer))",
    ),
    relation(
        "true",
        1,
        "holds when the fluent is true in the current state; only used in rule bodies",
        "(true (cell 1 1 b))",
    ),
    relation(
        "does",
        2,
        "holds when the role performs the action in the current step; only used in rule bodies",
        "(does xplayer (mark 1 1))",
    ),
    relation(
        "next",
        1,
        "a fluent that will be true in the next state",
        "(<= (next (control oplayer)) (true (control xplayer)))",
    ),
    relation(
        "legal",
        2,
        "the role may perform the action in the current state",
        "(<= (legal ?p (mark ?x ?y)) (true (cell ?x ?y b)) (true (control ?p)))",
    ),
    relation(
        "goal",
        2,
        "the role's reward (0 to 100) in the current state",
        "(<= (goal xplayer 100) (line x))",
    ),
    relation(
        "terminal",
        0,
        "the game is over in the current state",
        "(<= terminal (not open))",
    ),
    relation(
        "base",
        1,
        "declares a fluent that can be part of a state",
        "(<= (base (cell ?x ?y b)) (index ?x) (index ?y))",
    ),
    relation(
        "input",
        2,
        "declares an action a role may ever perform",
        "(<= (input ?p noop) (role ?p))",
    ),
    Keyword {
        name: "sees",
        arity: Some(2),
        kind: KeywordKind::Relation,
        gdl_ii: true,
        meaning: "GDL-II: the role perceives the percept after the current step (imperfect information)",
        example: "(<= (sees ?p (card ?c)) (does random (deal ?p ?c)))",
    },
    Keyword {
        name: "distinct",
        arity: Some(2),
        kind: KeywordKind::Connective,
        gdl_ii: false,
        meaning: "holds when the two terms are syntactically different",
        example: "(<= (adjacent ?x ?y) (succ ?x ?y) (distinct ?x ?y))",
    },
    Keyword {
        name: "not",
        arity: Some(1),
        kind: KeywordKind::Connective,
        gdl_ii: false,
        meaning: "negation as failure: holds when the sentence cannot be derived",
        example: "(<= terminal (not open))",
    },
    Keyword {
        name: "or",
        arity: None,
        kind: KeywordKind::Connective,
        gdl_ii: false,
        meaning: "holds when at least one of the literals holds",
        example: "(<= (line ?p) (or (row ?p) (column ?p) (diagonal ?p)))",
    },
    Keyword {
        name: "<=",
        arity: None,
        kind: KeywordKind::Arrow,
        gdl_ii: false,
        meaning: "the rule arrow: the head holds when every literal of the body holds",
        example: "(<= head literal1 literal2)",
    },
];

/// GDL-II: the role named `random` is the chance player, who moves uniformly at random.
pub const RANDOM_ROLE: &str = "random";

pub fn keyword(name: &str) -> Option<&'static Keyword> {
    KEYWORDS.iter().find(|keyword| keyword.name == name)
}

/// The keyword relations (`role`, `legal`, ...), not the connectives.
pub fn keyword_relation(name: &str) -> Option<&'static Keyword> {
    keyword(name).filter(|keyword| keyword.kind == KeywordKind::Relation)
}
