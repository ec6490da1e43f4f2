//! A Ludi game as the synthesis module breeds it: the ludeme tree as written (lists and atoms,
//! without positions or comments), each element with the *type* crossover and mutation match
//! it by — the paper's "weak form of strong typing" (§V.A.3): elements are only exchanged for
//! elements they are compatible with.

use std::collections::BTreeMap;

use crate::ludi::schema::{self, Accepts, Form, Kind};
use crate::ludi::tree::{self, AtomKind, Item};
use crate::{Syntax, parse_text};

/// One element of a game's ludeme tree.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Gene {
    /// `(head items...)`.
    List {
        head: Option<String>,
        items: Vec<Gene>,
    },
    /// A word, number, cell or string (`string` is written between quotes).
    Atom { text: String, string: bool },
}

impl Gene {
    fn from_item(item: &Item) -> Gene {
        match item {
            Item::List(list) => Gene::List {
                head: list.head.as_ref().map(|head| head.text.clone()),
                items: list.items.iter().map(Gene::from_item).collect(),
            },
            Item::Atom(atom) => Gene::Atom {
                text: atom.text.clone(),
                string: atom.kind == AtomKind::String,
            },
        }
    }

    /// The `(game ...)` of a Ludi text, when it reads without a syntax error; its `support`
    /// metadata is left out (the child's ancestry is written in its header instead).
    pub fn read_game(text: &str) -> Option<Gene> {
        let parse = parse_text(Syntax::Ludi, text, None);
        let root = parse.root();
        if root.has_error() {
            return None;
        }
        let (items, too_deep) = tree::read(root, text);
        if !too_deep.is_empty() {
            return None;
        }
        let mut game = items
            .iter()
            .map(Gene::from_item)
            .find(|gene| gene.head() == Some("game"))?;
        if let Gene::List { items, .. } = &mut game {
            items.retain(|item| item.head() != Some("support"));
        }
        Some(game)
    }

    /// A list's head.
    pub fn head(&self) -> Option<&str> {
        match self {
            Gene::List { head, .. } => head.as_deref(),
            Gene::Atom { .. } => None,
        }
    }

    /// The game's name: the first atom of `(game NAME ...)`.
    pub fn game_name(&self) -> Option<&str> {
        match self {
            Gene::List { items, .. } => match items.first() {
                Some(Gene::Atom { text, .. }) => Some(text),
                _ => None,
            },
            Gene::Atom { .. } => None,
        }
    }

    /// Renames the game.
    pub fn set_game_name(&mut self, name: &str) {
        if let Gene::List { items, .. } = self
            && let Some(Gene::Atom { text, .. }) = items.first_mut()
        {
            *text = name.to_owned();
        }
    }

    /// The game's part with `head` (`end`, `board`, ...): the first of its items so headed.
    pub fn part(&self, head: &str) -> Option<&Gene> {
        match self {
            Gene::List { items, .. } => items.iter().find(|item| item.head() == Some(head)),
            Gene::Atom { .. } => None,
        }
    }

    /// Replaces the game's part with `part`'s head by `part` (added at the end if missing).
    pub fn set_part(&mut self, part: Gene) {
        let Gene::List { items, .. } = self else {
            return;
        };
        match items.iter_mut().find(|item| item.head() == part.head()) {
            Some(item) => *item = part,
            None => items.push(part),
        }
    }

    /// The element written on one line, as Ludi reads it back.
    pub fn write(&self, out: &mut String) {
        match self {
            Gene::Atom { text, string } => {
                if *string {
                    out.push('"');
                    out.push_str(text);
                    out.push('"');
                } else {
                    out.push_str(text);
                }
            }
            Gene::List { head, items } => {
                out.push('(');
                let mut first = true;
                if let Some(head) = head {
                    out.push_str(head);
                    first = false;
                }
                for item in items {
                    if !first {
                        out.push(' ');
                    }
                    first = false;
                    item.write(out);
                }
                out.push(')');
            }
        }
    }

    /// The element as text, laid out by the Ludi formatter when it can.
    pub fn to_text(&self) -> String {
        let mut text = String::new();
        self.write(&mut text);
        text.push('\n');
        crate::ludi::format::format_ludi(&text).unwrap_or(text)
    }

    /// The elements below this one, in pre-order, this one first.
    pub fn count(&self) -> usize {
        match self {
            Gene::List { items, .. } => 1 + items.iter().map(Gene::count).sum::<usize>(),
            Gene::Atom { .. } => 1,
        }
    }
}

/// The schema's word ludeme of this kind that a place under `parent` accepts, if `text` is one:
/// `hex` under `tiling` is a tiling, under `shape` a shape.
fn word_kind(text: &str, parent: Option<&str>) -> Option<Kind> {
    let candidates: Vec<Kind> = schema::named(text)
        .filter(|ludeme| matches!(ludeme.form, Form::Word | Form::Either))
        .filter(|ludeme| ludeme.kind != Kind::Part)
        .map(|ludeme| ludeme.kind)
        .collect();
    let accepted_by_parent = |kind: Kind| {
        parent.is_some_and(|parent| {
            schema::named(parent).any(|ludeme| {
                ludeme
                    .params
                    .iter()
                    .any(|param| param.accepts.contains(&Accepts::Kind(kind)))
            })
        })
    };
    // A word the parent does not take as a word of its kind is something else there
    // (`i-nbors` in `tiling` is the tiling's part, not the capture method).
    candidates
        .iter()
        .copied()
        .find(|&kind| accepted_by_parent(kind))
}

/// The type of `gene` standing under a list headed `parent`: what it may be exchanged for.
/// `None` for what is never exchanged: the game itself, and the names a game declares and
/// refers to (players, pieces, regions, cells), which mean nothing in another game.
pub fn gene_type(gene: &Gene, parent: Option<&str>) -> Option<String> {
    let parent_name = parent.unwrap_or("");
    match gene {
        Gene::Atom { text, string } => {
            if *string {
                Some(format!("text:{parent_name}"))
            } else if text.parse::<i64>().is_ok() {
                Some(format!("integer:{parent_name}"))
            } else {
                word_kind(text, parent).map(|kind| format!("word:{kind:?}"))
            }
        }
        Gene::List { head, items } => {
            let head = head.as_deref().unwrap_or("");
            if head == "game" {
                return None;
            }
            let entry = schema::named(head).next();
            Some(match entry.map(|ludeme| ludeme.kind) {
                Some(Kind::Part) => format!("part:{head}"),
                // `and`, `or`, `not` stand for what their operands are.
                Some(Kind::Logic) => items
                    .iter()
                    .find(|item| matches!(item, Gene::List { .. }))
                    .and_then(|operand| gene_type(operand, parent))
                    .unwrap_or_else(|| format!("logic:{parent_name}")),
                Some(kind) => format!("kind:{kind:?}"),
                // A record, headed by a declared name: typed by where it stands.
                None => format!("record:{parent_name}"),
            })
        }
    }
}

/// The genes of some games by type, and the children seen under lists of each type (what
/// mutation may add there). Deterministic: ordered maps, genes in the order met.
#[derive(Clone, Debug, Default)]
pub struct GenePool {
    pub by_type: BTreeMap<String, Vec<Gene>>,
    pub children_of: BTreeMap<String, Vec<Gene>>,
}

impl GenePool {
    pub fn new<'a>(games: impl IntoIterator<Item = &'a Gene>) -> GenePool {
        let mut pool = GenePool::default();
        for game in games {
            pool.add(game, "game");
        }
        for genes in pool
            .by_type
            .values_mut()
            .chain(pool.children_of.values_mut())
        {
            let mut seen = std::collections::BTreeSet::new();
            genes.retain(|gene| seen.insert(gene.clone()));
        }
        pool
    }

    fn add(&mut self, gene: &Gene, own_type: &str) {
        let Gene::List { head, items } = gene else {
            return;
        };
        for item in items {
            let Some(item_type) = gene_type(item, head.as_deref()) else {
                continue;
            };
            self.by_type
                .entry(item_type.clone())
                .or_default()
                .push(item.clone());
            if matches!(item, Gene::List { .. }) {
                self.children_of
                    .entry(own_type.to_owned())
                    .or_default()
                    .push(item.clone());
            }
            self.add(item, &item_type);
        }
    }
}

/// The word ludemes of the schema of `kind`, for mutation to choose among.
pub fn words_of_kind(kind_name: &str) -> Vec<&'static str> {
    schema::LUDEMES
        .iter()
        .filter(|ludeme| matches!(ludeme.form, Form::Word | Form::Either))
        .filter(|ludeme| format!("word:{:?}", ludeme.kind) == kind_name)
        .map(|ludeme| ludeme.name)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const YAVALATH: &str = "(game Yavalath (players White Black) (board (tiling hex) (shape hex) \
        (size 5)) (end (All win (in-a-row 4)) (All lose (and (in-a-row 3) (not (in-a-row 4))))))";

    #[test]
    fn a_game_reads_and_writes_back_the_same() {
        let game = Gene::read_game(YAVALATH).expect("a game");
        let mut text = String::new();
        game.write(&mut text);
        assert_eq!(
            text,
            YAVALATH.split_whitespace().collect::<Vec<_>>().join(" ")
        );
        assert_eq!(game.game_name(), Some("Yavalath"));
    }

    #[test]
    fn elements_are_typed_by_what_they_may_be_exchanged_for() {
        let tiling = Gene::Atom {
            text: "hex".to_owned(),
            string: false,
        };
        assert_eq!(
            gene_type(&tiling, Some("tiling")).as_deref(),
            Some("word:Tiling")
        );
        assert_eq!(
            gene_type(&tiling, Some("shape")).as_deref(),
            Some("word:Shape")
        );
        let game = Gene::read_game(YAVALATH).expect("a game");
        let pool = GenePool::new([&game]);
        // The two end clauses are records of `end`; the `and` stands for an end condition.
        assert_eq!(pool.by_type["record:end"].len(), 2);
        assert!(pool.by_type["kind:EndCondition"].len() >= 2);
        assert!(pool.by_type["integer:size"].contains(&Gene::Atom {
            text: "5".to_owned(),
            string: false
        }));
        assert!(words_of_kind("word:Tiling").contains(&"square"));
    }
}
