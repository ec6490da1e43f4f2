//! Completion and signature help for GDL, in both syntaxes: the keywords, the names the file
//! writes (relations, functions, constants, and the variables of the rule at the cursor), and
//! the arity and argument names of the relation whose arguments hold the cursor.

use std::collections::{BTreeSet, HashSet};

use super::completion_filter::typed_range;
use super::{Completion, CompletionKind, SignatureHelp};
use crate::gdl::gdl_rules;
use crate::gdl::keywords::{self, KEYWORDS, KeywordKind, RANDOM_ROLE};
use crate::gdl::model::Term;
use crate::gdl::occurrences::{OccurrenceKind, gdl_occurrences};
use crate::{Db, SourceFile, Syntax, parse};

/// Every keyword and every name of the file that may be written at `offset` (the caller
/// filters them by what is typed), those the place expects preferred: keywords and relations
/// where a sentence goes, variables, constants and function names in an argument.
pub fn completions(db: &dyn Db, file: SourceFile, offset: usize) -> Vec<Completion> {
    let syntax = file.syntax(db);
    let mut out: Vec<Completion> = KEYWORDS
        .iter()
        // Infix writes `~` and `|` for `not` and `or`, and has no `<=`.
        .filter(|keyword| match keyword.kind {
            KeywordKind::Arrow => false,
            KeywordKind::Connective => syntax == Syntax::GdlKif || keyword.name == "distinct",
            KeywordKind::Relation => true,
        })
        .map(|keyword| {
            let meaning = keyword.meaning.split(';').next().unwrap_or(keyword.meaning);
            Completion::plain(
                keyword.name,
                format!("GDL keyword: {meaning}"),
                CompletionKind::Keyword,
            )
        })
        .collect();
    out.push(Completion::plain(
        RANDOM_ROLE,
        "GDL-II: the chance player, who moves at random",
        CompletionKind::Keyword,
    ));
    let mut seen: HashSet<(CompletionKind, String)> = out
        .iter()
        .map(|item| (item.kind, item.label.clone()))
        .collect();
    let rules = &gdl_rules(db, file).rules.rules;
    let rule_at_cursor = rules
        .iter()
        .position(|rule| rule.range.start <= offset && offset <= rule.range.end);
    for occurrence in gdl_occurrences(db, file) {
        // The name being typed is no completion of itself.
        if occurrence.range.start <= offset && offset <= occurrence.range.end {
            continue;
        }
        let (kind, detail) = match occurrence.kind {
            OccurrenceKind::RelationDefinition | OccurrenceKind::RelationUse => {
                if keywords::keyword(&occurrence.name).is_some() {
                    continue;
                }
                (CompletionKind::Relation, "relation of this game")
            }
            OccurrenceKind::Function => (CompletionKind::Function, "function of this game"),
            OccurrenceKind::Constant => (CompletionKind::Constant, "constant of this game"),
            OccurrenceKind::Variable { rule } if Some(rule) == rule_at_cursor => {
                (CompletionKind::Variable, "variable of this rule")
            }
            OccurrenceKind::Variable { .. } => continue,
        };
        if seen.insert((kind, occurrence.name.to_string())) {
            out.push(Completion::plain(&*occurrence.name, detail, kind));
        }
    }
    let (word_start, _) = typed_range(file.text(db), offset, syntax);
    let place = place_at(db, file, word_start);
    for item in &mut out {
        let random = item.label == RANDOM_ROLE;
        item.preferred = match (place, item.kind) {
            (Some(Place::Sentence), CompletionKind::Keyword) => !random,
            (Some(Place::Sentence), CompletionKind::Relation) => true,
            (
                Some(Place::Argument),
                CompletionKind::Variable | CompletionKind::Constant | CompletionKind::Function,
            ) => true,
            (Some(Place::Argument), CompletionKind::Keyword) => random,
            (None, CompletionKind::Keyword | CompletionKind::Variable) => true,
            _ => false,
        };
    }
    out
}

/// What a place of a rule takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Place {
    /// A sentence: a fact, a rule's head, a literal of its body (under `<=`, `not`, `or`).
    Sentence,
    /// A term: an argument of a sentence or of a function term.
    Argument,
}

/// What the word starting at `word_start` is written as, read off the lists around it.
fn place_at(db: &dyn Db, file: SourceFile, word_start: usize) -> Option<Place> {
    match file.syntax(db) {
        Syntax::GdlKif => {
            // A word after `(` names a list: its place is the list's, among the items of the
            // list around it; a word alone is an item of the list around it.
            let before = file.text(db).get(..word_start)?.trim_end();
            let item_at = match before.strip_suffix('(') {
                Some(rest) => rest.len(),
                None => word_start,
            };
            Some(match call_at(db, file, item_at) {
                // At the top level: a fact.
                None => Place::Sentence,
                Some((around, _))
                    if ["<=", "not", "or"]
                        .iter()
                        .any(|holder| around.eq_ignore_ascii_case(holder)) =>
                {
                    Place::Sentence
                }
                Some(_) => Place::Argument,
            })
        }
        // Infix writes sentences outside every argument list (`~` and `|` are no calls).
        Syntax::GdlInfix => Some(match call_at(db, file, word_start) {
            Some(_) => Place::Argument,
            None => Place::Sentence,
        }),
        _ => None,
    }
}

/// The relation (or keyword) whose argument list holds `offset`, with its argument names and
/// the argument at the cursor. Relations of the file are named as their definitions name them
/// when a rule head writes only variables (`(legal ?player ?move)`), else `arg1`, `arg2`, ...
pub fn signature_help(db: &dyn Db, file: SourceFile, offset: usize) -> Option<SignatureHelp> {
    let syntax = file.syntax(db);
    let (name, active) = call_at(db, file, offset)?;
    let (parameters, documentation) = match keywords::keyword(&name) {
        Some(keyword) if keyword.kind != KeywordKind::Arrow => {
            let names = keywords::argument_names(&name);
            let parameters: Vec<String> = match keyword.arity {
                Some(arity) if names.len() == arity => names
                    .iter()
                    .map(|name| name.trim_start_matches("the ").replace(' ', "-"))
                    .collect(),
                Some(arity) => (1..=arity).map(|i| format!("arg{i}")).collect(),
                None => vec!["literal...".to_owned()],
            };
            (parameters, format!("GDL keyword: {}.", keyword.meaning))
        }
        _ => relation_parameters(db, file, &name)?,
    };
    let active_parameter = match parameters.last() {
        Some(last) if last.ends_with("...") => Some(active.min(parameters.len() - 1)),
        _ => (active < parameters.len()).then_some(active),
    };
    let label = match syntax {
        Syntax::GdlInfix => format!("{name}({})", parameters.join(", ")),
        _ if parameters.is_empty() => format!("({name})"),
        _ => format!("({name} {})", parameters.join(" ")),
    };
    Some(SignatureHelp {
        label,
        parameters,
        active_parameter,
        documentation,
    })
}

/// The parameters and description of a relation the file defines.
fn relation_parameters(db: &dyn Db, file: SourceFile, name: &str) -> Option<(Vec<String>, String)> {
    let rules = &gdl_rules(db, file).rules.rules;
    let heads: Vec<_> = rules
        .iter()
        .filter(|rule| &*rule.head.name.name == name)
        .map(|rule| &rule.head)
        .collect();
    let arities: BTreeSet<usize> = heads.iter().map(|head| head.arity()).collect();
    let arity = *arities.first()?;
    // Variables of a head make good names only when they are all distinct variables.
    let named = heads.iter().find_map(|head| {
        let names: Vec<String> = head
            .args
            .iter()
            .map(|arg| match arg {
                Term::Variable(variable) => Some(variable.name.trim_start_matches('?').to_owned()),
                _ => None,
            })
            .collect::<Option<_>>()?;
        let distinct: HashSet<&String> = names.iter().collect();
        (names.len() == arity && distinct.len() == arity).then_some(names)
    });
    let parameters = named.unwrap_or_else(|| (1..=arity).map(|i| format!("arg{i}")).collect());
    let arities: Vec<String> = arities.iter().map(ToString::to_string).collect();
    let documentation = format!(
        "Relation of arity {}, defined by {} rule{} and fact{}.",
        arities.join(" or "),
        heads.len(),
        if heads.len() == 1 { "" } else { "s" },
        if heads.len() == 1 { "" } else { "s" },
    );
    Some((parameters, documentation))
}

/// The name of the innermost list (KIF) or argument list (infix) around `offset`, and the index
/// of the argument at the cursor (an argument ending right at the cursor is the one typed).
fn call_at(db: &dyn Db, file: SourceFile, offset: usize) -> Option<(String, usize)> {
    let parse = parse(db, file);
    let text = file.text(db);
    let mut node = parse.root().descendant_for_byte_range(offset, offset)?;
    // A list holds the cursor between its parentheses, or anywhere after its `(` while it is
    // not closed yet.
    let inside = |node: tree_sitter::Node<'_>| {
        let last = node.child(node.child_count().saturating_sub(1));
        let closed = last.is_some_and(|last| last.kind() == ")" && !last.is_missing());
        node.start_byte() < offset && (offset < node.end_byte() || !closed)
    };
    loop {
        let (name, arguments) = match (file.syntax(db), node.kind()) {
            (Syntax::GdlKif, "list") if inside(node) => {
                let head = node.child_by_field_name("head")?;
                let mut cursor = node.walk();
                let arguments: Vec<_> = node
                    .named_children(&mut cursor)
                    .filter(|child| !child.is_extra() && child.id() != head.id())
                    .map(|child| child.end_byte())
                    .collect();
                (head, arguments)
            }
            (Syntax::GdlInfix, "arguments") if inside(node) => {
                let parent = node.parent()?;
                let head = parent.child_by_field_name("name")?;
                let mut cursor = node.walk();
                // In infix the separators count: `f(a, |)` is at the second argument.
                let commas: Vec<_> = node
                    .children(&mut cursor)
                    .filter(|child| child.kind() == ",")
                    .map(|child| child.start_byte())
                    .collect();
                let active = commas.iter().filter(|&&comma| comma < offset).count();
                return Some((text[head.start_byte()..head.end_byte()].to_owned(), active));
            }
            _ => {
                match node.parent() {
                    Some(parent) => node = parent,
                    // An argument list still being typed is no node yet in infix.
                    None if file.syntax(db) == Syntax::GdlInfix => return open_call(text, offset),
                    None => return None,
                }
                continue;
            }
        };
        let active = arguments.iter().filter(|&&end| end < offset).count();
        return Some((text[name.start_byte()..name.end_byte()].to_owned(), active));
    }
}

/// The innermost `name(` left open before `offset`, read off the text, and the number of commas
/// at its level since: for an infix call being typed, which the parser reads as an error. The
/// look-back stops at the start of the rule (a line not indented) or 4 KiB back.
fn open_call(text: &str, offset: usize) -> Option<(String, usize)> {
    let start = offset.saturating_sub(4096);
    let before = text.get(start..offset)?;
    let (mut depth, mut commas) = (0usize, 0usize);
    for (index, c) in before.char_indices().rev() {
        match c {
            ')' => depth += 1,
            '(' if depth > 0 => depth -= 1,
            '(' => {
                let name_start = before[..index]
                    .trim_end_matches(|c: char| c.is_alphanumeric() || c == '_' || c == '-')
                    .len();
                let name = &before[name_start..index];
                return (!name.is_empty()).then(|| (name.to_owned(), commas));
            }
            ',' if depth == 0 => commas += 1,
            '\n' if !before[index + 1..].starts_with([' ', '\t']) && index + 1 < before.len() => {
                return None;
            }
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::RootDatabase;

    fn fixture(text: &str, syntax: Syntax) -> (RootDatabase, SourceFile, usize) {
        let (db, file, offset, _) = crate::ide::fixture::fixture("t.kif", syntax, text);
        (db, file, offset)
    }

    const KIF: &str = "(role x) (role o)\n(init (cell 1 b))\n(<= (legal ?player (mark ?m)) (true (cell ?m b)) (true (control ?player)))\n(<= (open ?m) (true (cell ?m b)))\n(<= terminal (not (open ?n)))\n";

    fn labels(items: &[Completion], kind: CompletionKind) -> Vec<&str> {
        items
            .iter()
            .filter(|item| item.kind == kind)
            .map(|item| item.label.as_str())
            .collect()
    }

    #[test]
    fn kif_completion_offers_keywords_and_the_files_names() {
        let text = KIF.replace(
            "(true (cell ?m b)))\n(<= terminal",
            "(true (cell ?m b)) $0)\n(<= terminal",
        );
        let (db, file, offset) = fixture(&text, Syntax::GdlKif);
        let items = completions(&db, file, offset);
        let keywords = labels(&items, CompletionKind::Keyword);
        for keyword in [
            "role", "init", "true", "next", "legal", "does", "goal", "terminal", "distinct", "not",
            "or", "base", "input", "sees", "random",
        ] {
            assert!(keywords.contains(&keyword), "{keyword} in {keywords:?}");
        }
        assert!(!keywords.contains(&"<="));
        assert_eq!(labels(&items, CompletionKind::Relation), ["open"]);
        assert_eq!(
            labels(&items, CompletionKind::Function),
            ["cell", "mark", "control"]
        );
        assert_eq!(
            labels(&items, CompletionKind::Constant),
            ["x", "o", "1", "b"]
        );
        // Only the variables of the rule at the cursor (`open`'s), not `?player` or `?n`.
        assert_eq!(labels(&items, CompletionKind::Variable), ["?m"]);
    }

    /// A game of `lines` lines in the style of the corpus's big games: a 20 × 20 board, its
    /// adjacency facts, a counter, and many relations of few rules each, so that it writes
    /// hundreds of names. A few names besides the relation `adjacent` start with `ad`.
    fn big_game(lines: usize) -> String {
        let mut out: Vec<String> = vec!["(role red)".into(), "(role blue)".into()];
        for x in 1..=20 {
            for y in 1..=20 {
                out.push(format!("(init (cell c{x} r{y} empty))"));
            }
        }
        for x in 1..20 {
            for y in 1..=20 {
                out.push(format!("(adjacent c{x} c{} r{y})", x + 1));
            }
        }
        out.push("(<= (adjacent_diagonally ?x ?y) (adjacent ?x ?y ?z) (adjacent ?y ?x ?z))".into());
        out.push("(<= (legal ?p (advance ?x ad)) (role ?p) (true (cell ?x ?y empty)))".into());
        out.push("(<= (next (cell ?x ?y ?p)) (does ?p (advance ?x ?y)))".into());
        out.push("(<= terminal (true (step s100)))".into());
        out.push("(<= (goal ?p 50) (role ?p))".into());
        let mut k = 0;
        while out.len() < lines - 1 {
            out.push(format!(
                "(<= (feature{k} ?p) (true (cell ?x ?y ?p)) (adjacent ?x ?z ?y) (true (cell ?z ?y piece{k})))"
            ));
            out.push(format!("(succ s{k} s{})", k + 1));
            k += 1;
        }
        out.join("\n") + "\n"
    }

    #[test]
    fn completion_in_a_3000_line_game_after_two_letters_is_short_and_starts_with_the_relation() {
        let game = big_game(3000);
        let all = {
            let (db, file, offset) = fixture(&format!("{game}(<= (open ?x) $0)"), Syntax::GdlKif);
            completions(&db, file, offset).len()
        };
        assert!(all > 800, "the game writes {all} names and keywords");
        // Typing `ad` for a literal of a new rule's body, in a file of 3,000 lines.
        let text = format!("{game}(<= (open ?x) (true (cell ?x ?y empty)) (ad$0))");
        assert_eq!(text.lines().count(), 3000);
        let (db, file, offset) = fixture(&text, Syntax::GdlKif);
        let found = crate::ide::completions(&db, file, offset);
        let labels: Vec<&str> = found.items.iter().map(|item| item.label.as_str()).collect();
        assert!(
            found.items.len() < 50,
            "{} items: {:?}...",
            found.items.len(),
            &labels[..20.min(labels.len())]
        );
        assert!(!found.is_incomplete);
        assert_eq!(labels[0], "adjacent", "{labels:?}");
        // Every name starting with `ad` is offered; the relations, which a body literal is,
        // before the function and the constant.
        assert_eq!(
            labels,
            ["adjacent", "adjacent_diagonally", "ad", "advance"],
            "{labels:?}"
        );
        // Where a term goes, the constant `ad` comes first.
        let text = format!("{game}(<= (open ?x) (true (cell ?x ad$0)))");
        let (db, file, offset) = fixture(&text, Syntax::GdlKif);
        let found = crate::ide::completions(&db, file, offset);
        assert_eq!(found.items[0].label, "ad", "{:?}", found.items);
        // Unclosed, as typed without an editor closing the lists.
        let text = format!("{game}(<= (open ?x) (true (cell ?x ?y empty)) (ad$0");
        let (db, file, offset) = fixture(&text, Syntax::GdlKif);
        let found = crate::ide::completions(&db, file, offset);
        assert_eq!(found.items[0].label, "adjacent", "{:?}", found.items);
    }

    #[test]
    fn infix_completion_prefers_relations_outside_and_terms_inside_argument_lists() {
        let game = "role(red)\nadjacent(a, b)\nlegal(P, move(ad)) :- role(P)\n";
        let (db, file, offset) = fixture(&format!("{game}terminal :- ad$0"), Syntax::GdlInfix);
        let found = crate::ide::completions(&db, file, offset);
        assert_eq!(found.items[0].label, "adjacent", "{:?}", found.items);
        let (db, file, offset) =
            fixture(&format!("{game}terminal :- true(ad$0)"), Syntax::GdlInfix);
        let found = crate::ide::completions(&db, file, offset);
        assert_eq!(found.items[0].label, "ad", "{:?}", found.items);
    }

    #[test]
    fn infix_completion_leaves_out_the_kif_connectives() {
        let (db, file, offset) = fixture("role(x)\nterminal :- ~$0", Syntax::GdlInfix);
        let keywords: Vec<String> = completions(&db, file, offset)
            .into_iter()
            .filter(|item| item.kind == CompletionKind::Keyword)
            .map(|item| item.label)
            .collect();
        assert!(keywords.contains(&"distinct".to_owned()));
        assert!(!keywords.contains(&"not".to_owned()) && !keywords.contains(&"or".to_owned()));
    }

    #[test]
    fn signature_of_a_keyword_in_kif() {
        let text = KIF.replace("(true (control ?player))", "(does ?player $0)");
        let (db, file, offset) = fixture(&text, Syntax::GdlKif);
        let help = signature_help(&db, file, offset).expect("inside does");
        assert_eq!(help.label, "(does role action)");
        assert_eq!(help.parameters, ["role", "action"]);
        assert_eq!(help.active_parameter, Some(1));
    }

    #[test]
    fn signature_of_a_relation_names_its_arguments_after_its_head() {
        let text = KIF.replace("(not (open ?n))", "(not (legal ?n$0 ?q))");
        let (db, file, offset) = fixture(&text, Syntax::GdlKif);
        let help = signature_help(&db, file, offset).expect("inside legal");
        // `legal` is a keyword: its own argument names.
        assert_eq!(help.label, "(legal role action)");
        assert_eq!(help.active_parameter, Some(0));
        let text = KIF.replace("(not (open ?n))", "(not (open $0))");
        let (db, file, offset) = fixture(&text, Syntax::GdlKif);
        let help = signature_help(&db, file, offset).expect("inside open");
        assert_eq!(help.label, "(open m)");
        assert_eq!(help.active_parameter, Some(0));
        assert!(
            help.documentation.starts_with("Relation of arity 1"),
            "{}",
            help.documentation
        );
    }

    #[test]
    fn signature_in_infix_counts_commas() {
        let (db, file, offset) = fixture(
            "role(x)\nlegal(P, mark(M)) :- true(cell(M, b)) & true(control(P))\nterminal :- legal(x, $0",
            Syntax::GdlInfix,
        );
        let help = signature_help(&db, file, offset).expect("inside legal");
        assert_eq!(help.label, "legal(role, action)");
        assert_eq!(help.active_parameter, Some(1));
        // As an editor that closes parentheses writes it.
        let (db, file, offset) = fixture("role(x)\nterminal :- legal($0)\n", Syntax::GdlInfix);
        let help = signature_help(&db, file, offset).expect("inside legal");
        assert_eq!(help.active_parameter, Some(0));
    }

    #[test]
    fn no_signature_for_function_terms_or_outside_lists() {
        let (db, file, offset) = fixture("(role x)$0 (init (cell 1 b))", Syntax::GdlKif);
        assert_eq!(signature_help(&db, file, offset), None);
        let (db, file, offset) = fixture("(role x) (init (cell 1$0 b))", Syntax::GdlKif);
        assert_eq!(signature_help(&db, file, offset), None);
    }
}
