//! What every check reads: the rules, the relation table and the dependency graph of a file.

use std::collections::{BTreeMap, BTreeSet};

use rustc_hash::FxHashMap as HashMap;

use crate::TextRange;
use crate::gdl::keywords;
use crate::gdl::model::{Literal, Name, Rule, Sentence, Symbol};
use ludeme_engine::graph::component_numbers;

/// What is known of one relation of a file.
#[derive(Debug, Default)]
pub struct RelationInfo {
    /// Every arity it is written with (heads and bodies).
    pub arities: BTreeSet<usize>,
    /// Indices of the rules (facts included) whose head it is.
    pub definitions: Vec<usize>,
    /// Where it is used in rule bodies: (rule index, the sentence's range).
    pub uses: Vec<(usize, TextRange)>,
}

/// An edge of the dependency graph: the head relation of a rule depends on a relation of its
/// body, negatively when that sentence is under `not`.
#[derive(Clone, Debug)]
pub struct Dependency {
    pub from: usize,
    pub to: usize,
    pub negative: bool,
    /// The rule the edge comes from, and the body sentence.
    pub rule: usize,
    pub range: TextRange,
}

pub struct Context<'a> {
    /// The rules checked: a file's, or one top-level form's for the checks that look at one
    /// rule at a time.
    pub rules: &'a [&'a Rule],
    /// Relation names (keywords in lower case, see [`keywords::relation_key`]), indexed; the
    /// graph's nodes.
    pub names: Vec<Name>,
    index: HashMap<Name, usize>,
    pub relations: Vec<RelationInfo>,
    pub dependencies: Vec<Dependency>,
    /// The constants declared by `(role ...)` facts.
    pub roles: Vec<&'a Symbol>,
    /// Strongly connected components of the dependency graph, as a component number per
    /// relation; relations in one component depend on each other (recursion).
    pub component: Vec<usize>,
    /// How many relations each component has, by component number.
    component_sizes: Vec<usize>,
    /// The relations each relation's rules use directly (the graph's adjacency lists).
    successors: Vec<Vec<usize>>,
}

impl<'a> Context<'a> {
    pub fn new(rules: &'a [&'a Rule]) -> Self {
        let mut context = Context {
            rules,
            names: Vec::new(),
            index: HashMap::default(),
            relations: Vec::new(),
            dependencies: Vec::new(),
            roles: Vec::new(),
            component: Vec::new(),
            component_sizes: Vec::new(),
            successors: Vec::new(),
        };
        for (rule_index, &rule) in rules.iter().enumerate() {
            let head = context.relation_id(&rule.head.name.name);
            context.relations[head].arities.insert(rule.head.arity());
            context.relations[head].definitions.push(rule_index);
            if rule.head.name.name.eq_ignore_ascii_case(keywords::ROLE)
                && rule.is_fact()
                && let [crate::gdl::model::Term::Constant(role)] = rule.head.args.as_slice()
            {
                context.roles.push(role);
            }
            for literal in &rule.body {
                literal.for_each_sentence(false, &mut |sentence: &Sentence, negative| {
                    let to = context.relation_id(&sentence.name.name);
                    context.relations[to].arities.insert(sentence.arity());
                    context.relations[to]
                        .uses
                        .push((rule_index, sentence.range));
                    context.dependencies.push(Dependency {
                        from: head,
                        to,
                        negative,
                        rule: rule_index,
                        range: sentence.range,
                    });
                });
            }
        }
        let mut successors: Vec<Vec<usize>> = vec![Vec::new(); context.names.len()];
        for edge in &context.dependencies {
            if !successors[edge.from].contains(&edge.to) {
                successors[edge.from].push(edge.to);
            }
        }
        context.component = component_numbers(&successors);
        // Counted once here: the recursion check asks for every positive literal of every rule.
        let mut component_sizes = vec![0; context.component.iter().max().map_or(0, |&c| c + 1)];
        for &component in &context.component {
            component_sizes[component] += 1;
        }
        context.component_sizes = component_sizes;
        context.successors = successors;
        context
    }

    fn relation_id(&mut self, name: &Name) -> usize {
        if let Some(id) = self.id_of(name) {
            return id;
        }
        let key = keywords::relation_key(name);
        let name = if key.len() == name.len() && *key == **name {
            name.clone()
        } else {
            Name::from(key)
        };
        let id = self.names.len();
        self.names.push(name.clone());
        self.index.insert(name, id);
        self.relations.push(RelationInfo::default());
        id
    }

    pub fn relation(&self, name: &str) -> Option<&RelationInfo> {
        self.id_of(name).map(|id| &self.relations[id])
    }

    /// The graph node of the relation written `name` (keywords in any case), if the rules have it.
    pub fn id_of(&self, name: &str) -> Option<usize> {
        self.index.get(keywords::relation_key(name)).copied()
    }

    /// The graph node of a relation the rules have (a sentence of them).
    pub fn id(&self, name: &str) -> usize {
        self.id_of(name)
            .expect("every relation of the rules has a node")
    }

    /// A shortest chain of dependencies `from → ... → to` (both ends included), if `from`
    /// depends on `to` directly or through other relations.
    pub fn dependency_path(&self, from: usize, to: usize) -> Option<Vec<usize>> {
        let mut parent: Vec<Option<usize>> = vec![None; self.names.len()];
        let mut queue = std::collections::VecDeque::from([from]);
        let mut seen = vec![false; self.names.len()];
        seen[from] = true;
        while let Some(node) = queue.pop_front() {
            for &next in &self.successors[node] {
                if next == to {
                    let mut path = vec![to, node];
                    let mut at = node;
                    while let Some(previous) = parent[at] {
                        path.push(previous);
                        at = previous;
                    }
                    path.reverse();
                    return Some(path);
                }
                if !seen[next] {
                    seen[next] = true;
                    parent[next] = Some(node);
                    queue.push_back(next);
                }
            }
        }
        None
    }

    /// `a → b → c` for a dependency path.
    pub fn describe_path(&self, path: &[usize]) -> String {
        path.iter()
            .map(|&id| format!("`{}`", self.names[id]))
            .collect::<Vec<_>>()
            .join(" → ")
    }

    /// Every literal of every rule body, with its rule index, for checks that look at literals.
    pub fn body_literals(&self) -> impl Iterator<Item = (usize, &'a Literal)> + '_ {
        self.rules
            .iter()
            .enumerate()
            .flat_map(|(index, rule)| rule.body.iter().map(move |literal| (index, literal)))
    }

    /// The names of the relations ordered by name, for deterministic reports.
    pub fn sorted_relations(&self) -> BTreeMap<&Name, usize> {
        self.names
            .iter()
            .enumerate()
            .map(|(id, name)| (name, id))
            .collect()
    }

    /// Whether two relations are mutually recursive: each depends on the other (a relation is
    /// recursive with itself when it depends on itself, directly or through others).
    pub fn recursive_with(&self, a: usize, b: usize) -> bool {
        self.component[a] == self.component[b]
            && (a != b
                || self.successors[a].contains(&a)
                || self.component_sizes[self.component[a]] > 1)
    }
}
