//! Lowering one file: the tree-sitter tree → [`Value`]s → one [`StatementKind`] per statement, or
//! an [`UnknownStatement`] with the closest known form. No other file is read here (`is like` is
//! resolved by [`crate::egg::inherit`]).

use tree_sitter::Node;

use crate::egg::forms::{self, closest_form};
use crate::egg::model::{
    Arithmetic, Call, Connective, Definition, DefinitionBody, Direction, EggFile, Players,
    RangeTerm, Rule, Statement, StatementKind, Term, TurnOrder, UnknownStatement, Value, Verb,
    Word,
};
use crate::egg::words::{key, number_word_value};
use crate::{Db, SourceFile, Syntax, TextRange, parse};

/// Why a statement that is no known form is no free rule either.
const NO_SUBJECT: &str =
    "its subject is neither a game word (player, piece, board, score, ...) nor a defined name";

/// Values nest (`((a, b))`, `f(g(h(x)))`) as deep as the designer writes them; past this depth
/// the lowering keeps the text as an opaque term instead of following it, so that no input can
/// exhaust the stack.
const MAX_DEPTH: usize = 32;

/// The statements of `file` on their own (empty for other languages).
#[salsa::tracked(returns(ref))]
pub fn egg_file(db: &dyn Db, file: SourceFile) -> EggFile {
    if file.syntax(db) != Syntax::Egg {
        return EggFile::default();
    }
    lower(parse(db, file).root(), file.text(db))
}

/// Lowers the statements under `root`.
pub fn lower(root: Node<'_>, text: &str) -> EggFile {
    let reader = Reader {
        text,
        suggestions_left: std::cell::Cell::new(SUGGESTED_STATEMENTS),
    };
    let items: Vec<Node<'_>> = root
        .named_children(&mut root.walk())
        .filter(|node| node.kind() != "comment" && !node.is_error())
        .collect();
    // Names defined anywhere in the file may be the subject of a free rule before their
    // definition (statements are in any order).
    let defined: Vec<String> = items
        .iter()
        .filter(|node| matches!(node.kind(), "definition" | "code_statement"))
        .filter_map(|node| node.child_by_field_name("name"))
        .map(|name| key(&reader.name_word(name).text))
        .collect();
    let mut file = EggFile::default();
    for node in items {
        let range = reader.range(node);
        match reader.statement(node, &defined) {
            Ok(kind) => file.statements.push(Statement { kind, range }),
            Err(mut unknown) => {
                unknown.range = range;
                file.unknown.push(unknown);
            }
        }
    }
    file
}

/// How many unknown statements of a file get a suggestion (see [`Reader::suggestions_left`]).
const SUGGESTED_STATEMENTS: usize = 100;

struct Reader<'t> {
    text: &'t str,
    /// How many more unknown statements get a closest form: past the first hundred a file is
    /// not a game with typos, and comparing each of its statements with every form would cost
    /// seconds (100,000 unknown statements) for suggestions nobody reads.
    suggestions_left: std::cell::Cell<usize>,
}

impl Reader<'_> {
    /// [`closest_form`] while suggestions are left.
    fn closest_form(&self, written: &str, head: Option<&str>) -> Option<&'static str> {
        let left = self.suggestions_left.get();
        self.suggestions_left.set(left.checked_sub(1)?);
        closest_form(written, head)
    }

    fn range(&self, node: Node<'_>) -> TextRange {
        TextRange::new(node.start_byte(), node.end_byte())
    }

    fn word(&self, node: Node<'_>) -> Word {
        Word {
            text: self.text[node.byte_range()].to_owned(),
            range: self.range(node),
        }
    }

    /// The name of a definition: a word, or the function of a call (`Tester(1)`).
    fn name_word(&self, node: Node<'_>) -> Word {
        match node.kind() {
            "call" => node
                .child_by_field_name("function")
                .map_or_else(|| self.word(node), |function| self.word(function)),
            _ => self.word(node),
        }
    }

    /// A value node: a phrase's terms, or one term.
    fn value(&self, node: Node<'_>, depth: usize) -> Value {
        let terms = if node.kind() == "phrase" {
            self.terms(node, depth)
        } else {
            self.term(node, depth).into_iter().collect()
        };
        Value {
            terms,
            range: self.range(node),
        }
    }

    /// The terms among the children of a phrase or statement (connectives included).
    fn terms(&self, node: Node<'_>, depth: usize) -> Vec<Term> {
        node.children(&mut node.walk())
            .filter_map(|child| self.term(child, depth))
            .collect()
    }

    fn term(&self, node: Node<'_>, depth: usize) -> Option<Term> {
        let range = self.range(node);
        if !node.is_named() {
            let connective = match node.kind() {
                "and" => Connective::And,
                "or" => Connective::Or,
                "if" => Connective::If,
                "not" => Connective::Not,
                _ => return None,
            };
            return Some(Term::Connective(connective, range));
        }
        if depth > MAX_DEPTH || node.is_error() || node.is_missing() {
            return (!node.is_missing()).then(|| Term::Opaque(self.word(node)));
        }
        let inner = depth + 1;
        let field = |name: &str| node.child_by_field_name(name);
        let values = |node: Node<'_>| -> Vec<Value> {
            node.named_children(&mut node.walk())
                .filter(|child| child.kind() != "comment")
                .map(|child| self.value(child, inner))
                .collect()
        };
        Some(match node.kind() {
            "word" => Term::Word(self.word(node)),
            "number" => Term::Number(self.word(node)),
            "string" => {
                let written = &self.text[node.byte_range()];
                let contents = written.trim_start_matches('"').trim_end_matches('"');
                Term::Text(Word {
                    text: contents.to_owned(),
                    range,
                })
            }
            "range" => {
                let (Some(start), Some(end)) = (field("start"), field("end")) else {
                    return Some(Term::Opaque(self.word(node)));
                };
                let start = self.term(start, inner)?;
                let end = self.term(end, inner)?;
                Term::Range(Box::new(RangeTerm { start, end, range }))
            }
            "dimensions" => {
                let sizes = ["width", "height", "depth"]
                    .into_iter()
                    .filter_map(field)
                    .filter_map(|number| self.text[number.byte_range()].parse().ok())
                    .collect();
                Term::Dimensions { sizes, range }
            }
            "list" => Term::List {
                items: values(node),
                range,
            },
            "tuple" => Term::Tuple {
                items: values(node),
                range,
            },
            "group" => match node.named_child(0) {
                Some(child) => Term::Group(Box::new(self.value(child, inner))),
                None => Term::Opaque(self.word(node)),
            },
            "call" => {
                let function = field("function").map(|f| self.word(f))?;
                let arguments = field("arguments").map(values).unwrap_or_default();
                Term::Call(Box::new(Call {
                    function,
                    arguments,
                    range,
                }))
            }
            "binary_expression" => {
                let (Some(left), Some(operator), Some(right)) =
                    (field("left"), field("operator"), field("right"))
                else {
                    return Some(Term::Opaque(self.word(node)));
                };
                Term::Arithmetic(Box::new(Arithmetic {
                    left: self.term(left, inner)?,
                    operator: self.text[operator.byte_range()].chars().next()?,
                    right: self.term(right, inner)?,
                    range,
                }))
            }
            "phrase" => Term::Group(Box::new(self.value(node, inner))),
            _ => Term::Opaque(self.word(node)),
        })
    }

    /// The statement a top-level node makes.
    fn statement(
        &self,
        node: Node<'_>,
        defined: &[String],
    ) -> Result<StatementKind, UnknownStatement> {
        let field = |name: &str| node.child_by_field_name(name);
        match node.kind() {
            "like_statement" => match (field("name"), field("base")) {
                (Some(name), Some(base)) => Ok(StatementKind::Like {
                    name: self.name_word(name),
                    base: self.word(base),
                }),
                _ => Err(unknown(Some("NAME is like GAME"), None)),
            },
            "assert_statement" => match (field("name"), field("condition")) {
                (Some(name), Some(condition)) => Ok(StatementKind::Assert {
                    name: self.word(name),
                    condition: self.value(condition, 0),
                }),
                _ => Err(unknown(Some("assert NAME: CONDITION"), None)),
            },
            "code_statement" => {
                let (Some(name), Some(code)) = (field("name"), field("code")) else {
                    return Err(unknown(Some("NAME is PHRASE"), None));
                };
                Ok(StatementKind::Definition(Definition {
                    name: self.name_word(name),
                    parameters: self.parameters(name),
                    verb: self.verb(field("verb")),
                    body: DefinitionBody::Code(self.word(code)),
                }))
            }
            "definition" => {
                let (Some(name), Some(value)) = (field("name"), field("value")) else {
                    return Err(unknown(Some("NAME is PHRASE"), None));
                };
                let verb = self.verb(field("verb"));
                self.definition(name, verb, self.value(value, 0), node)
            }
            _ => self.plain_statement(node, defined),
        }
    }

    fn verb(&self, node: Option<Node<'_>>) -> Verb {
        match node.map(|n| self.text[n.byte_range()].to_lowercase()) {
            Some(verb) if verb == "means" => Verb::Means,
            Some(verb) if verb == "are" => Verb::Are,
            _ => Verb::Is,
        }
    }

    /// `1` of `Tester(1)`.
    fn parameters(&self, name: Node<'_>) -> Option<Word> {
        let arguments = name.child_by_field_name("arguments")?;
        Some(self.word(arguments))
    }

    /// `NAME is|are|means VALUE`: a reserved name makes a statement of its own kind.
    fn definition(
        &self,
        name_node: Node<'_>,
        verb: Verb,
        value: Value,
        node: Node<'_>,
    ) -> Result<StatementKind, UnknownStatement> {
        let name = self.name_word(name_node);
        let written = &self.text[node.byte_range()];
        let reserved = |form: &'static str| unknown(Some(form), None);
        match name.key().as_str() {
            "game" if verb != Verb::Means => {
                if let Some(word) = value.single_word() {
                    Ok(StatementKind::GameName(word.clone()))
                } else if value.terms.iter().any(|t| matches!(t, Term::Call(_))) {
                    let steps = value
                        .split(Connective::And)
                        .into_iter()
                        .map(part_value)
                        .collect();
                    Ok(StatementKind::Steps(steps))
                } else {
                    Err(reserved("game is NAME"))
                }
            }
            "player" if verb != Verb::Means => match players(&value) {
                Some(players) => Ok(StatementKind::Players(players)),
                None => Err(reserved("players are white and black")),
            },
            "move" if verb != Verb::Means => match names(&value) {
                Some(moves) => Ok(StatementKind::Moves(moves)),
                None => Err(reserved("move is choose")),
            },
            "piece" if verb != Verb::Means => match names(&value) {
                Some(pieces) => Ok(StatementKind::Pieces(pieces)),
                None => Err(reserved("pieces are Rock and Paper and Scissors")),
            },
            "goal" if verb != Verb::Means => Ok(StatementKind::Goal(value)),
            "board" if verb != Verb::Means => match value.single_word() {
                Some(shape) if forms::BOARD_SHAPES.contains(&shape.key().as_str()) => {
                    Ok(StatementKind::BoardShape(shape.clone()))
                }
                Some(shape) => Err(unknown(
                    Some("board is hexagon"),
                    Some(format!(
                        "`{}` is not a board shape the model knows ({})",
                        shape.text,
                        forms::BOARD_SHAPES.join(", ")
                    )),
                )),
                None => Err(reserved("board is hexagon")),
            },
            "square" | "cell" if verb != Verb::Means => match value.single_word() {
                Some(shape) => Ok(StatementKind::CellShape(shape.clone())),
                None => Err(reserved("squares are hexagons")),
            },
            "turn" | "port" | "grid" => {
                Err(unknown(self.closest_form(written, Some(&name.key())), None))
            }
            _ => Ok(StatementKind::Definition(Definition {
                parameters: self.parameters(name_node),
                body: definition_body(verb, value),
                name,
                verb,
            })),
        }
    }

    /// A statement that is not a definition: `2..6 players`, `turns alternate clockwise`,
    /// `3 × 1 grid`, ... or a free rule.
    fn plain_statement(
        &self,
        node: Node<'_>,
        defined: &[String],
    ) -> Result<StatementKind, UnknownStatement> {
        let terms = self.terms(node, 0);
        let range = self.range(node);
        let written = &self.text[node.byte_range()];
        let keys: Vec<Option<String>> = terms
            .iter()
            .map(|term| match term {
                Term::Word(word) => Some(word.key()),
                _ => None,
            })
            .collect();
        let key_at = |i: usize| keys.get(i).and_then(|k| k.as_deref());
        let head = key_at(0);
        match (terms.as_slice(), head) {
            ([count, Term::Word(_)], _) if key_at(1) == Some("player") => {
                match count_bounds(count) {
                    Some((min, max)) => Ok(StatementKind::Players(Players::Count {
                        min,
                        max,
                        range: count.range(),
                    })),
                    None => Err(unknown(Some("2..6 players"), None)),
                }
            }
            ([Term::Dimensions { sizes, .. }, Term::Word(_)], _) if key_at(1) == Some("grid") => {
                Ok(StatementKind::Grid(sizes.clone()))
            }
            (_, Some("turn")) => match (key_at(1), key_at(2), terms.len()) {
                (Some("alternate"), None, 2) => {
                    Ok(StatementKind::Turns(TurnOrder::Alternate(None)))
                }
                (Some("alternate"), Some("clockwise"), 3) => Ok(StatementKind::Turns(
                    TurnOrder::Alternate(Some(Direction::Clockwise)),
                )),
                (Some("alternate"), Some("counterclockwise" | "anticlockwise"), 3) => Ok(
                    StatementKind::Turns(TurnOrder::Alternate(Some(Direction::Counterclockwise))),
                ),
                (Some("synchronize" | "synchronise"), None, 2) => {
                    Ok(StatementKind::Turns(TurnOrder::Synchronize))
                }
                _ => Err(unknown(self.closest_form(written, Some("turn")), None)),
            },
            ([Term::Word(_), Term::Word(_)], Some("score")) if key_at(1) == Some("increment") => {
                Ok(StatementKind::ScoreIncrements)
            }
            ([Term::Word(_), number @ Term::Number(_)], Some("port")) => number
                .whole_number()
                .map(StatementKind::Port)
                .ok_or_else(|| unknown(Some("port 10900"), None)),
            ([Term::Word(_), Term::Word(_), Term::List { items, .. }], Some("board"))
                if key_at(1) == Some("start") =>
            {
                board_rows(items)
                    .map(StatementKind::BoardStart)
                    .ok_or_else(|| unknown(Some("board starts [[Rock, Paper, Scissors]]"), None))
            }
            (
                [
                    Term::Word(_),
                    Term::Word(_),
                    Term::Connective(Connective::If, _),
                    rest @ ..,
                ],
                Some("game"),
            ) if key_at(1) == Some("end") && !rest.is_empty() => {
                Ok(StatementKind::Ending(part_value(rest)))
            }
            _ if is_network(&terms, &keys) => Ok(StatementKind::Network(
                terms[..terms.len() - 1]
                    .iter()
                    .filter_map(|t| match t {
                        Term::Word(word) => Some(word.clone()),
                        _ => None,
                    })
                    .collect(),
            )),
            (_, Some(head)) if forms::RESERVED_HEADS.contains(&head) => {
                Err(unknown(self.closest_form(written, Some(head)), None))
            }
            _ => match rule_key(&terms, defined) {
                Some(key) => Ok(StatementKind::Rule(Rule {
                    key,
                    value: Value { terms, range },
                })),
                // A near-miss of a known form is a typo; otherwise say why it is no rule.
                None => Err(match self.closest_form(written, None) {
                    Some(form) => unknown(Some(form), None),
                    None => unknown(None, Some(NO_SUBJECT.to_owned())),
                }),
            },
        }
    }
}

/// A statement not understood; [`lower`] gives it the statement's range.
fn unknown(suggestion: Option<&'static str>, reason: Option<String>) -> UnknownStatement {
    UnknownStatement {
        range: TextRange::empty(0),
        suggestion,
        reason,
    }
}

/// A slice of terms as a value spanning them.
fn part_value(terms: &[Term]) -> Value {
    let range = match (terms.first(), terms.last()) {
        (Some(first), Some(last)) => TextRange::new(first.range().start, last.range().end),
        _ => TextRange::empty(0),
    };
    // A step written in parentheses, `(bet(money) or Fold)`, is the phrase inside them.
    if let [Term::Group(inner)] = terms {
        return (**inner).clone();
    }
    Value {
        terms: terms.to_vec(),
        range,
    }
}

/// `2`, `two`, `2..6`: the bounds of a count of players.
fn count_bounds(term: &Term) -> Option<(u64, u64)> {
    match term {
        Term::Number(_) => term.whole_number().map(|n| (n, n)),
        Term::Word(word) => number_word_value(&word.text).map(|n| (n, n)),
        Term::Range(range) => Some((range.start.whole_number()?, range.end.whole_number()?)),
        _ => None,
    }
}

/// `players are white and black`, `players are 0..20`, `players are [x, o]`.
fn players(value: &Value) -> Option<Players> {
    if let Some(term) = value.single()
        && let Some((min, max)) = count_bounds(term)
    {
        return Some(Players::Count {
            min,
            max,
            range: term.range(),
        });
    }
    names(value).map(Players::Named)
}

/// Names joined by `and`/`or`, or listed in brackets: `Rock and Paper and Scissors`,
/// `[I, O, T]`, `rotate or shift`.
fn names(value: &Value) -> Option<Vec<Word>> {
    let terms: &[Term] = match value.terms.as_slice() {
        [Term::List { items, .. }] => {
            return items
                .iter()
                .map(|item| item.single_word().cloned())
                .collect();
        }
        terms => terms,
    };
    let mut found = Vec::new();
    for term in terms {
        match term {
            Term::Word(word) => found.push(word.clone()),
            Term::Connective(Connective::And | Connective::Or, _) => {}
            _ => return None,
        }
    }
    (!found.is_empty()).then_some(found)
}

/// `[[Rock, Paper, Scissors]]` (rows of cells) or `[Rock, Paper]` (one row).
fn board_rows(items: &[Value]) -> Option<Vec<Vec<Word>>> {
    let row = |items: &[Value]| -> Option<Vec<Word>> {
        items
            .iter()
            .map(|item| item.single_word().cloned())
            .collect()
    };
    if items
        .iter()
        .all(|item| matches!(item.single(), Some(Term::List { .. })))
    {
        items
            .iter()
            .map(|item| match item.single() {
                Some(Term::List { items, .. }) => row(items),
                _ => None,
            })
            .collect()
    } else {
        row(items).map(|cells| vec![cells])
    }
}

/// What a definition's value says: a pattern of tuples, the kinds of a thing, a quantity, or a
/// phrase.
fn definition_body(verb: Verb, value: Value) -> DefinitionBody {
    if verb != Verb::Means {
        if let Some(kinds) = match value.terms.as_slice() {
            [Term::List { items, .. }] => items
                .iter()
                .map(|item| item.single_word().cloned())
                .collect::<Option<Vec<Word>>>(),
            _ => None,
        } {
            return DefinitionBody::Kinds(kinds);
        }
        if let [count, Term::Word(of)] = value.terms.as_slice() {
            let count = match count {
                Term::Word(word) => number_word_value(&word.text),
                other => other.whole_number(),
            };
            if let Some(count) = count {
                return DefinitionBody::Quantity {
                    count,
                    of: of.clone(),
                };
            }
        }
        let parts = value.split(Connective::And);
        if !parts.is_empty()
            && parts
                .iter()
                .all(|part| matches!(part, [Term::Tuple { .. }]))
        {
            let tuples = parts
                .iter()
                .filter_map(|part| match part {
                    [Term::Tuple { items, .. }] => Some(items.clone()),
                    _ => None,
                })
                .collect();
            return DefinitionBody::Pattern(tuples);
        }
    }
    DefinitionBody::Phrase(value)
}

/// `networked multiplayer text game`.
fn is_network(terms: &[Term], keys: &[Option<String>]) -> bool {
    let Some((last, adjectives)) = keys.split_last() else {
        return false;
    };
    last.as_deref() == Some("game")
        && !adjectives.is_empty()
        && terms.iter().all(|t| matches!(t, Term::Word(_)))
        && adjectives.iter().all(|k| {
            k.as_deref()
                .is_some_and(|k| forms::NETWORK_WORDS.contains(&k))
        })
}

/// The override key of a free rule (subject and verb), when its subject is a game word or a
/// defined name among its first three words.
fn rule_key(terms: &[Term], defined: &[String]) -> Option<String> {
    let words: Vec<String> = terms
        .iter()
        .map_while(|term| match term {
            Term::Word(word) => Some(word.key()),
            _ => None,
        })
        .collect();
    let subject = words
        .iter()
        .take(3)
        .position(|word| forms::RULE_SUBJECTS.contains(&word.as_str()) || defined.contains(word))?;
    let verb = words[subject + 1..]
        .iter()
        .find(|word| !forms::MODALS.contains(&word.as_str()))
        .map_or("", String::as_str);
    Some(format!("{} {verb}", words[subject]).trim_end().to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse_text;

    fn lower_text(text: &str) -> EggFile {
        let parse = parse_text(Syntax::Egg, text, None);
        lower(parse.root(), text)
    }

    fn kinds(text: &str) -> Vec<StatementKind> {
        let file = lower_text(text);
        assert!(file.unknown.is_empty(), "{:?}", file.unknown);
        file.statements.into_iter().map(|s| s.kind).collect()
    }

    #[test]
    fn players_in_every_form() {
        let counts: Vec<(u64, u64)> =
            kinds("2..6 players\n1 player\nplayers are 0..20\ntwo players\n")
                .into_iter()
                .map(|kind| match kind {
                    StatementKind::Players(players) => players.bounds(),
                    other => panic!("{other:?}"),
                })
                .collect();
        assert_eq!(counts, [(2, 6), (1, 1), (0, 20), (2, 2)]);
        let players = |text: &str| match kinds(text).as_slice() {
            [StatementKind::Players(players)] => players.clone(),
            other => panic!("{other:?}"),
        };
        let named = players("players are white and black");
        let swapped = players("Players are Black and White");
        assert_eq!(named.name_keys(), swapped.name_keys());
    }

    #[test]
    fn turns_board_and_network() {
        assert_eq!(
            kinds("turns alternate clockwise\nTurns synchronize\n3 × 1 grid\nport 10900\n"),
            [
                StatementKind::Turns(TurnOrder::Alternate(Some(Direction::Clockwise))),
                StatementKind::Turns(TurnOrder::Synchronize),
                StatementKind::Grid(vec![3, 1]),
                StatementKind::Port(10900),
            ]
        );
        assert!(matches!(
            kinds("networked multiplayer text game").as_slice(),
            [StatementKind::Network(words)] if words.len() == 3
        ));
    }

    #[test]
    fn definitions_take_the_shape_of_their_value() {
        let bodies: Vec<DefinitionBody> = kinds(
            "Pair is (R, s) and (R, s)\nhands are [Pair, HighCard]\n\
             hand is five cards\nFold means player loses\n",
        )
        .into_iter()
        .map(|kind| match kind {
            StatementKind::Definition(definition) => definition.body,
            other => panic!("{other:?}"),
        })
        .collect();
        assert!(matches!(&bodies[0], DefinitionBody::Pattern(tuples) if tuples.len() == 2));
        assert!(matches!(&bodies[1], DefinitionBody::Kinds(kinds) if kinds.len() == 2));
        assert!(
            matches!(&bodies[2], DefinitionBody::Quantity { count: 5, of } if of.text == "cards")
        );
        assert!(matches!(&bodies[3], DefinitionBody::Phrase(_)));
    }

    #[test]
    fn unknown_statements_get_the_closest_form() {
        let file = lower_text("turns alternat\nblorp frobnicates the widget\n");
        let suggestions: Vec<Option<&str>> = file.unknown.iter().map(|u| u.suggestion).collect();
        assert_eq!(suggestions, [Some("turns alternate"), None]);
    }

    #[test]
    fn only_the_first_hundred_unknown_statements_get_a_suggestion() {
        let file = lower_text(&"turns alternat\n".repeat(SUGGESTED_STATEMENTS + 5));
        let suggested = file
            .unknown
            .iter()
            .filter(|u| u.suggestion.is_some())
            .count();
        assert_eq!(file.unknown.len(), SUGGESTED_STATEMENTS + 5);
        assert_eq!(suggested, SUGGESTED_STATEMENTS);
    }

    #[test]
    fn deep_nesting_is_kept_as_text() {
        let text = format!("goal is {}x{}", "(".repeat(5000), ")".repeat(5000));
        let file = lower_text(&text);
        assert_eq!(file.statements.len() + file.unknown.len(), 1);
    }
}
