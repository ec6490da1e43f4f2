//! Every name written in a GDL file, classified: the base of navigation (definition,
//! references, rename, highlight) and of semantic highlighting.

use crate::gdl::lower::gdl_rules;
use crate::gdl::model::{Compound, Literal, Name, Term};
use crate::{Db, SourceFile, TextRange};

/// What a written name is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OccurrenceKind {
    /// The relation of a rule head or fact: where the relation is defined.
    RelationDefinition,
    /// The relation of a body sentence.
    RelationUse,
    /// The name of a function term (`mark` in `(mark 1 1)`).
    Function,
    /// A constant term (`xplayer`, `1`).
    Constant,
    /// A variable; variables are local to their rule.
    Variable { rule: usize },
}

/// Which names are the same symbol: relations (defined or used) share one namespace, functions
/// another, constants another, and variables one per rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Namespace {
    Relation,
    Function,
    Constant,
    Variable { rule: usize },
}

impl OccurrenceKind {
    pub fn namespace(self) -> Namespace {
        match self {
            OccurrenceKind::RelationDefinition | OccurrenceKind::RelationUse => Namespace::Relation,
            OccurrenceKind::Function => Namespace::Function,
            OccurrenceKind::Constant => Namespace::Constant,
            OccurrenceKind::Variable { rule } => Namespace::Variable { rule },
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Occurrence {
    pub name: Name,
    pub range: TextRange,
    pub kind: OccurrenceKind,
}

/// The occurrences of names in `file`, in source order.
#[salsa::tracked(returns(ref))]
pub fn gdl_occurrences(db: &dyn Db, file: SourceFile) -> Vec<Occurrence> {
    let mut occurrences = Vec::new();
    for (index, rule) in gdl_rules(db, file).rules.rules.iter().enumerate() {
        let mut collector = Collector {
            rule: index,
            out: &mut occurrences,
        };
        collector.sentence(&rule.head, OccurrenceKind::RelationDefinition);
        for literal in &rule.body {
            collector.literal(literal);
        }
    }
    occurrences.sort_by_key(|occurrence| (occurrence.range.start, occurrence.range.end));
    occurrences
}

/// The occurrence whose name covers `offset` (or ends right at it, for a cursor after a name).
pub fn occurrence_at(occurrences: &[Occurrence], offset: usize) -> Option<&Occurrence> {
    let after = occurrences.partition_point(|occurrence| occurrence.range.start <= offset);
    occurrences[..after]
        .iter()
        .rev()
        .find(|occurrence| occurrence.range.start <= offset && offset <= occurrence.range.end)
}

/// Every occurrence of the same symbol as `target`, in source order.
pub fn same_symbol<'a>(
    occurrences: &'a [Occurrence],
    target: &'a Occurrence,
) -> impl Iterator<Item = &'a Occurrence> + 'a {
    let namespace = target.kind.namespace();
    occurrences.iter().filter(move |occurrence| {
        occurrence.kind.namespace() == namespace && occurrence.name == target.name
    })
}

struct Collector<'a> {
    rule: usize,
    out: &'a mut Vec<Occurrence>,
}

impl Collector<'_> {
    fn push(&mut self, name: &Name, range: TextRange, kind: OccurrenceKind) {
        self.out.push(Occurrence {
            name: name.clone(),
            range,
            kind,
        });
    }

    fn sentence(&mut self, sentence: &Compound, kind: OccurrenceKind) {
        self.push(&sentence.name.name, sentence.name.range, kind);
        for arg in &sentence.args {
            self.term(arg);
        }
    }

    fn term(&mut self, term: &Term) {
        match term {
            Term::Constant(symbol) => {
                self.push(&symbol.name, symbol.range, OccurrenceKind::Constant)
            }
            Term::Variable(symbol) => self.push(
                &symbol.name,
                symbol.range,
                OccurrenceKind::Variable { rule: self.rule },
            ),
            Term::Function(function) => {
                self.push(
                    &function.name.name,
                    function.name.range,
                    OccurrenceKind::Function,
                );
                for arg in &function.args {
                    self.term(arg);
                }
            }
        }
    }

    fn literal(&mut self, literal: &Literal) {
        match literal {
            Literal::Sentence(sentence) => self.sentence(sentence, OccurrenceKind::RelationUse),
            Literal::Not { inner, .. } => self.literal(inner),
            Literal::Distinct { left, right, .. } => {
                self.term(left);
                self.term(right);
            }
            Literal::Or { disjuncts, .. } => {
                for disjunct in disjuncts {
                    self.literal(disjunct);
                }
            }
        }
    }
}
