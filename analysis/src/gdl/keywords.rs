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

/// The keyword relation spelled `name` in any case (`ROLE`, `True`). GDL symbols are
/// case-insensitive, and the reference validator recognises keywords whatever their case.
pub fn keyword_relation_ignoring_case(name: &str) -> Option<&'static Keyword> {
    KEYWORDS.iter().find(|keyword| {
        keyword.kind == KeywordKind::Relation && keyword.name.eq_ignore_ascii_case(name)
    })
}

/// The name a relation is known by: a keyword relation in any case is the keyword (`ROLE` is
/// `role`, as the reference validator reads it), any other name is as written. The checks, the
/// English and the engines all key relations by it, so that they describe and play one game.
pub fn relation_key(name: &str) -> &str {
    keyword_relation_ignoring_case(name).map_or(name, |keyword| keyword.name)
}

/// The words of the rule language itself, `<=`, `distinct`, `or` and `not`, in any case. They are
/// never the name of a relation, a function or a constant.
pub fn reserved_word_ignoring_case(name: &str) -> Option<&'static Keyword> {
    KEYWORDS.iter().find(|keyword| {
        keyword.kind != KeywordKind::Relation && keyword.name.eq_ignore_ascii_case(name)
    })
}

/// What the arguments of each keyword relation are, in order (for messages: "`legal` takes 2
/// arguments: the role and the action").
pub fn argument_names(name: &str) -> &'static [&'static str] {
    match name {
        "role" => &["the role name"],
        "init" | "true" | "next" | "base" => &["the fluent"],
        "does" | "legal" | "input" => &["the role", "the action"],
        "goal" => &["the role", "the goal value"],
        "sees" => &["the role", "the percept"],
        _ => &[],
    }
}

/// The relations the game manager supplies at every step, the current state (`true`) and the
/// moves (`does`): rules use them and never define them.
pub const SUPPLIED_BY_MANAGER: &[&str] = &["true", "does"];

/// The relations the game manager reads from the rules: a game defines them, and need not use
/// them in any rule body.
pub const READ_BY_MANAGER: &[&str] = &[
    "role", "init", "next", "legal", "goal", "terminal", "base", "input", "sees",
];

/// The relations that are only ever defined, never used in rule bodies: they describe the initial
/// state (`init`), the next state (`next`) or the game's signature (`base`, `input`), none of which
/// the current state can depend on.
pub const NEVER_IN_BODY: &[&str] = &["init", "next", "base", "input"];

/// The relations that are only ever facts: the roles are fixed before the game starts.
pub const ONLY_FACTS: &[&str] = &["role"];

/// The keyword relations whose first argument is a role.
pub const ROLE_FIRST: &[&str] = &["legal", "does", "goal", "input", "sees"];

/// The keyword relation that declares the roles.
pub const ROLE: &str = "role";

/// The keyword relation whose second argument is a goal value, an integer from 0 to 100.
pub const GOAL: &str = "goal";

/// The highest goal value; goal values are integers from 0 to this.
pub const MAX_GOAL_VALUE: u32 = 100;

/// The other keyword relations by name, for code that reads rules by what their head means (the
/// English renderer).
pub const INIT: &str = "init";
pub const TRUE: &str = "true";
pub const DOES: &str = "does";
pub const NEXT: &str = "next";
pub const LEGAL: &str = "legal";
pub const TERMINAL: &str = "terminal";
pub const BASE: &str = "base";
pub const INPUT: &str = "input";
pub const SEES: &str = "sees";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_lists_of_keyword_relations_name_keyword_relations() {
        let lists = [
            SUPPLIED_BY_MANAGER,
            READ_BY_MANAGER,
            NEVER_IN_BODY,
            ONLY_FACTS,
            ROLE_FIRST,
            &[
                GOAL, ROLE, INIT, TRUE, DOES, NEXT, LEGAL, TERMINAL, BASE, INPUT, SEES,
            ],
        ];
        for name in lists.iter().flat_map(|list| list.iter()) {
            assert!(
                keyword_relation(name).is_some(),
                "{name} is not a keyword relation"
            );
        }
        for keyword in KEYWORDS
            .iter()
            .filter(|keyword| keyword.kind == KeywordKind::Relation)
        {
            assert_eq!(
                Some(argument_names(keyword.name).len()),
                keyword.arity,
                "the arguments of {}",
                keyword.name
            );
            assert!(
                SUPPLIED_BY_MANAGER.contains(&keyword.name)
                    != READ_BY_MANAGER.contains(&keyword.name),
                "{} is either supplied or read by the game manager",
                keyword.name
            );
        }
    }

    #[test]
    fn keywords_match_in_any_case() {
        assert_eq!(
            keyword_relation_ignoring_case("ROLE").map(|k| k.name),
            Some("role")
        );
        assert_eq!(
            reserved_word_ignoring_case("Distinct").map(|k| k.name),
            Some("distinct")
        );
        assert!(reserved_word_ignoring_case("role").is_none());
        assert!(keyword_relation_ignoring_case("not").is_none());
    }
}
