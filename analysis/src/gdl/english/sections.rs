//! The explanation of a whole game: rules sorted into the sections a player reads, facts
//! grouped, rules with one conclusion merged.

use std::collections::{HashMap, HashSet, VecDeque};

use crate::TextRange;
use crate::gdl::keywords;
use crate::gdl::model::{Rule, RuleSet, Term};

use super::facts;
use super::literals::{self, Phrase};
use super::rules::{self, Reading, finish};
use super::terms::{self, join_list};
use super::vocabulary::{FluentForm, Vocabulary, is_random_role, keyword_name};
use super::{GameExplanation, Item, Section, SectionKind};

/// An initial state of more phrases than this (facts or groups of facts) gets one sentence per
/// fluent relation.
const ONE_SENTENCE_INITIAL_STATE: usize = 8;

/// Where a rule goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Place {
    Role,
    InitFact,
    Init,
    Legal,
    Next,
    Sees,
    Terminal,
    Goal,
    BaseFact,
    Base,
    InputFact,
    Input,
    StaticFact,
    Definition,
}

fn place(rule: &Rule) -> Place {
    let head = &rule.head;
    let ground_fact = rule.is_fact() && head.args.iter().all(terms::is_ground);
    match (keyword_name(&head.name.name), head.arity()) {
        (Some(keywords::ROLE), 1) if ground_fact => Place::Role,
        (Some(keywords::INIT), 1) if ground_fact => Place::InitFact,
        (Some(keywords::INIT), 1) => Place::Init,
        (Some(keywords::LEGAL), 2) => Place::Legal,
        (Some(keywords::NEXT), 1) => Place::Next,
        (Some(keywords::SEES), 2) => Place::Sees,
        (Some(keywords::TERMINAL), 0) => Place::Terminal,
        (Some(keywords::GOAL), 2) => Place::Goal,
        (Some(keywords::BASE), 1) if ground_fact => Place::BaseFact,
        (Some(keywords::BASE), 1) => Place::Base,
        (Some(keywords::INPUT), 2) if ground_fact => Place::InputFact,
        (Some(keywords::INPUT), 2) => Place::Input,
        _ if ground_fact => Place::StaticFact,
        _ => Place::Definition,
    }
}

pub fn explain(rule_set: &RuleSet, vocabulary: &Vocabulary) -> GameExplanation {
    let rules = &rule_set.rules;
    let mut by_place: HashMap<Place, Vec<usize>> = HashMap::new();
    for (index, rule) in rules.iter().enumerate() {
        by_place.entry(place(rule)).or_default().push(index);
    }
    let at = |place: Place| by_place.get(&place).map(Vec::as_slice).unwrap_or(&[]);
    let explainer = Explainer { rules, vocabulary };

    let mut sections = Vec::new();

    let mut role_items = explainer.roles(at(Place::Role));
    role_items.extend(
        explainer.rule_items(
            at(Place::Definition).iter().copied().filter(|&i| {
                matches!(keyword_name(&rules[i].head.name.name), Some(keywords::ROLE))
            }),
        ),
    );
    sections.push(section(
        SectionKind::Roles,
        role_items,
        "No player is declared: a game needs at least one (role ...) fact.",
        None,
    ));

    let mut initial = explainer.initial_state(at(Place::InitFact));
    initial.extend(explainer.rule_items(at(Place::Init).iter().copied()));
    sections.push(section(
        SectionKind::InitialState,
        initial,
        "Nothing holds initially: no (init ...) fact is given.",
        None,
    ));

    sections.push(section(
        SectionKind::Legal,
        explainer.rule_items(at(Place::Legal).iter().copied()),
        "No rule says what the players may do.",
        None,
    ));

    sections.push(section(
        SectionKind::Next,
        explainer.rule_items(by_fluent(rules, at(Place::Next))),
        "No rule builds the next state: after the first move nothing holds.",
        Some(
            "A fluent holds in the next state only when one of these rules says so; every other \
             fluent is dropped.",
        ),
    ));

    let sees = explainer.rule_items(at(Place::Sees).iter().copied());
    if !sees.is_empty() {
        sections.push(section(SectionKind::Sees, sees, "", None));
    }

    sections.push(section(
        SectionKind::Terminal,
        explainer.rule_items(at(Place::Terminal).iter().copied()),
        "No rule says when the game ends.",
        None,
    ));

    sections.push(section(
        SectionKind::Goal,
        explainer.rule_items(at(Place::Goal).iter().copied()),
        "No rule says who scores what.",
        Some("Scores count when the game ends."),
    ));

    let used_first: Vec<usize> = [
        Place::Legal,
        Place::Next,
        Place::Sees,
        Place::Terminal,
        Place::Goal,
        Place::Init,
        Place::Base,
        Place::Input,
    ]
    .iter()
    .flat_map(|&place| at(place).iter().copied())
    .collect();
    let definitions: Vec<usize> = at(Place::Definition)
        .iter()
        .copied()
        .filter(|&i| !matches!(keyword_name(&rules[i].head.name.name), Some(keywords::ROLE)))
        .collect();
    let definitions = explainer.definitions(&definitions, &used_first);
    if !definitions.is_empty() {
        sections.push(section(
            SectionKind::Definitions,
            definitions,
            "",
            Some("The game's own relations, in the order the rules above first need them."),
        ));
    }

    let mut signature = explainer.base_facts(at(Place::BaseFact));
    signature.extend(explainer.rule_items(at(Place::Base).iter().copied()));
    signature.extend(explainer.input_facts(at(Place::InputFact)));
    signature.extend(explainer.rule_items(at(Place::Input).iter().copied()));
    if !signature.is_empty() {
        sections.push(section(
            SectionKind::Signature,
            signature,
            "",
            Some("What a state may contain (base) and which moves exist at all (input)."),
        ));
    }

    let static_facts = explainer.static_facts(at(Place::StaticFact));
    if !static_facts.is_empty() {
        sections.push(section(SectionKind::Facts, static_facts, "", None));
    }

    GameExplanation { sections }
}

fn section(kind: SectionKind, items: Vec<Item>, when_empty: &str, note: Option<&str>) -> Section {
    let note = if items.is_empty() {
        Some(when_empty.to_owned())
    } else {
        note.map(str::to_owned)
    };
    Section {
        kind,
        title: kind.title().to_owned(),
        note,
        items,
    }
}

/// The `next` rules ordered by their fluent's relation (first appearance), then source order.
fn by_fluent(rules: &[Rule], indices: &[usize]) -> impl Iterator<Item = usize> + use<> {
    let mut order: Vec<String> = Vec::new();
    let mut keyed: Vec<(usize, usize)> = Vec::new();
    for &index in indices {
        let relation = match rules[index].head.args.first() {
            Some(Term::Function(function)) => function.name.name.to_string(),
            Some(other) => terms::term(other),
            None => String::new(),
        };
        let rank = match order.iter().position(|known| *known == relation) {
            Some(rank) => rank,
            None => {
                order.push(relation);
                order.len() - 1
            }
        };
        keyed.push((rank, index));
    }
    keyed.sort();
    keyed.into_iter().map(|(_, index)| index)
}

struct Explainer<'a> {
    rules: &'a [Rule],
    vocabulary: &'a Vocabulary,
}

/// A sentence being built from rules that share a conclusion.
struct Merged {
    reading: Reading,
    alternatives: Vec<String>,
    ranges: Vec<TextRange>,
    /// Whether further rules with the same conclusion may join.
    open: bool,
}

impl<'a> Explainer<'a> {
    /// One item per rule, except that rules with the same conclusion and short conditions become
    /// one sentence: "The game ends when line (x) holds, when line (o) holds, or when open does
    /// not hold."
    fn rule_items(&self, indices: impl IntoIterator<Item = usize>) -> Vec<Item> {
        let mut merged: Vec<Merged> = Vec::new();
        let mut by_head: HashMap<String, usize> = HashMap::new();
        for index in indices {
            let rule = &self.rules[index];
            let reading = rules::read(rule, self.vocabulary);
            // Alternatives joined with commas must not hold commas of their own.
            let short = !reading.conditions.items.is_empty()
                && !terms::has_list_comma(&reading.conditions.join_and());
            if short
                && let Some(&at) = by_head.get(&reading.head)
                && merged[at].open
            {
                // A rule written twice says nothing new.
                let alternative = reading.conditions.join_and();
                if !merged[at].alternatives.contains(&alternative) {
                    merged[at].alternatives.push(alternative);
                }
                merged[at].ranges.push(rule.range);
                continue;
            }
            if short {
                by_head.insert(reading.head.clone(), merged.len());
            }
            merged.push(Merged {
                alternatives: vec![reading.conditions.join_and()],
                reading,
                ranges: vec![rule.range],
                open: short,
            });
        }
        merged
            .into_iter()
            .map(|merged| {
                let text = match merged.alternatives.as_slice() {
                    [_] => merged.reading.sentence(),
                    alternatives => {
                        let whens: Vec<String> = alternatives
                            .iter()
                            .map(|alternative| format!("when {alternative}"))
                            .collect();
                        let (init, last) = whens.split_at(whens.len() - 1);
                        finish(&format!(
                            "{} {}, or {}",
                            merged.reading.head,
                            init.join(", "),
                            last[0]
                        ))
                    }
                };
                Item {
                    text,
                    ranges: merged.ranges,
                }
            })
            .collect()
    }

    fn roles(&self, indices: &[usize]) -> Vec<Item> {
        let names: Vec<String> = indices
            .iter()
            .filter_map(|&i| self.rules[i].head.args.first().map(terms::term))
            .collect();
        let ranges: Vec<TextRange> = indices.iter().map(|&i| self.rules[i].range).collect();
        let mut items = Vec::new();
        match names.as_slice() {
            [] => {}
            [only] => items.push(Item {
                text: format!("The only player is {only}."),
                ranges: ranges.clone(),
            }),
            _ => items.push(Item {
                text: format!("The players are {}.", join_list(&names, "and")),
                ranges: ranges.clone(),
            }),
        }
        for (name, range) in names.iter().zip(&ranges) {
            if is_random_role(name) {
                items.push(Item {
                    text: format!(
                        "{name} stands for chance: it picks one of its legal moves at random."
                    ),
                    ranges: vec![*range],
                });
            }
        }
        items
    }

    /// The ground `init` facts, grouped: "Initially, each cell (1..3, 1..3) is b and control is
    /// xplayer."
    fn initial_state(&self, indices: &[usize]) -> Vec<Item> {
        let groups = self.fluent_groups(indices);
        let mut phrases: Vec<(usize, Phrase, usize)> = Vec::new();
        let mut singles: Vec<(usize, Vec<String>, usize)> = Vec::new();
        for (group_index, group) in groups.iter().enumerate() {
            for (first, tuple, ranged) in group.spelled() {
                if !ranged && group.value.is_some() && !tuple.is_empty() {
                    singles.push((first, tuple, group_index));
                } else {
                    phrases.push((first, group.phrase(&tuple, ranged), group_index));
                }
            }
        }
        phrases.extend(
            sequences(&groups, &mut singles)
                .into_iter()
                .map(|(first, text, group)| (first, Phrase::clause(text.clone(), text), group)),
        );
        phrases.extend(
            singles
                .into_iter()
                .map(|(first, tuple, group)| (first, groups[group].phrase(&tuple, false), group)),
        );
        phrases.sort_by_key(|(first, _, _)| *first);
        if phrases.is_empty() {
            return Vec::new();
        }
        // "A, B and C hold" for the facts in the holds form, as in rule bodies.
        let sentence = |phrases: Vec<Phrase>| {
            let items = literals::conjunction(&phrases).items;
            finish(&format!("Initially, {}", terms::join_and_lists(&items)))
        };
        if phrases.len() <= ONE_SENTENCE_INITIAL_STATE {
            let all = phrases
                .iter()
                .map(|(_, phrase, _)| phrase.clone())
                .collect();
            return vec![Item {
                text: sentence(all),
                ranges: indices.iter().map(|&i| self.rules[i].range).collect(),
            }];
        }
        // One sentence per relation, in order of first appearance.
        let mut relations: Vec<&str> = Vec::new();
        for group in &groups {
            if !relations.contains(&group.relation.as_str()) {
                relations.push(&group.relation);
            }
        }
        relations
            .iter()
            .map(|relation| {
                let of_relation: Vec<Phrase> = phrases
                    .iter()
                    .filter(|(_, _, group)| groups[*group].relation == *relation)
                    .map(|(_, phrase, _)| phrase.clone())
                    .collect();
                let mut ranges: Vec<TextRange> = groups
                    .iter()
                    .filter(|group| group.relation == *relation)
                    .flat_map(|group| group.ranges.iter().copied())
                    .collect();
                ranges.sort();
                Item {
                    text: sentence(of_relation),
                    ranges,
                }
            })
            .collect()
    }

    /// `(base ...)` facts: "control can be red or black", "each cell (1..3, 1..3) can be b, x or
    /// o".
    fn base_facts(&self, indices: &[usize]) -> Vec<Item> {
        struct Entry {
            subjects: Vec<String>,
            values: Vec<String>,
            ranges: Vec<TextRange>,
            first: usize,
        }
        let groups = self.fluent_groups(indices);
        // Value-form facts gather per subject ("control can be red or black"), holds-form facts
        // per relation ("moved (wk), moved (wr) and moved (bk) can hold").
        let mut entries: Vec<Entry> = Vec::new();
        let mut by_key: HashMap<String, usize> = HashMap::new();
        for group in &groups {
            for (first, tuple, ranged) in group.spelled() {
                let subject = group.subject(&tuple, ranged);
                let key = match group.value {
                    Some(_) => format!("is {subject}"),
                    None => format!("holds {}", group.relation),
                };
                let at = *by_key.entry(key).or_insert_with(|| {
                    entries.push(Entry {
                        subjects: Vec::new(),
                        values: Vec::new(),
                        ranges: Vec::new(),
                        first,
                    });
                    entries.len() - 1
                });
                let entry = &mut entries[at];
                if !entry.subjects.contains(&subject) {
                    entry.subjects.push(subject);
                }
                entry.values.extend(group.value.iter().cloned());
                entry.ranges.extend(group.ranges.iter().copied());
            }
        }
        entries.sort_by_key(|entry| entry.first);
        entries
            .into_iter()
            .map(|mut entry| {
                entry.ranges.sort();
                entry.ranges.dedup();
                let text = if entry.values.is_empty() {
                    format!("{} can hold", facts::capped_list(&entry.subjects, "and"))
                } else {
                    format!(
                        "{} can be {}",
                        entry.subjects.join(", "),
                        facts::capped_list(&entry.values, "or")
                    )
                };
                Item {
                    text: finish(&text),
                    ranges: entry.ranges,
                }
            })
            .collect()
    }

    /// `(input ...)` facts, per role: "Possible moves of robot: move (up), move (down) and noop."
    fn input_facts(&self, indices: &[usize]) -> Vec<Item> {
        let mut roles: Vec<(String, Vec<String>, Vec<TextRange>)> = Vec::new();
        for &index in indices {
            let rule = &self.rules[index];
            let [role, action] = rule.head.args.as_slice() else {
                continue;
            };
            let (role, action) = (terms::term(role), terms::term(action));
            match roles.iter_mut().find(|(known, ..)| *known == role) {
                Some((_, actions, ranges)) => {
                    actions.push(action);
                    ranges.push(rule.range);
                }
                None => roles.push((role, vec![action], vec![rule.range])),
            }
        }
        roles
            .into_iter()
            .map(|(role, actions, ranges)| Item {
                text: finish(&format!(
                    "Possible moves of {role}: {}",
                    facts::capped_list(&actions, "and")
                )),
                ranges,
            })
            .collect()
    }

    /// Ground facts of the fluents in `init` or `base` facts, grouped by relation and value.
    fn fluent_groups(&self, indices: &[usize]) -> Vec<FluentGroup> {
        let mut groups: Vec<FluentGroup> = Vec::new();
        let mut by_key: HashMap<(String, usize, Option<String>), usize> = HashMap::new();
        for (order, &index) in indices.iter().enumerate() {
            let rule = &self.rules[index];
            let Some(fluent) = rule.head.args.first() else {
                continue;
            };
            let (relation, arity, value, places) = match fluent {
                Term::Function(function) => {
                    let args: Vec<String> = function.args.iter().map(terms::term).collect();
                    let name = function.name.name.to_string();
                    match self.vocabulary.fluent_form(&name, args.len()) {
                        FluentForm::Value => {
                            let (value, prefix) = args.split_last().expect("value form has args");
                            (name, args.len(), Some(value.clone()), prefix.to_vec())
                        }
                        FluentForm::Holds => (name, args.len(), None, args),
                    }
                }
                other => (terms::term(other), 0, None, Vec::new()),
            };
            let key = (relation.clone(), arity, value.clone());
            let at = *by_key.entry(key).or_insert_with(|| {
                groups.push(FluentGroup {
                    relation,
                    value,
                    tuples: Vec::new(),
                    ranges: Vec::new(),
                });
                groups.len() - 1
            });
            groups[at].tuples.push((places, order));
            groups[at].ranges.push(rule.range);
        }
        groups
    }

    /// The helper relations, in the order the rules of the sections above first use them, then
    /// the ones nothing uses, in source order.
    fn definitions(&self, indices: &[usize], used_first: &[usize]) -> Vec<Item> {
        let rules: &'a [Rule] = self.rules;
        let mut defined: HashMap<&'a str, Vec<usize>> = HashMap::new();
        let mut order: Vec<&'a str> = Vec::new();
        for &index in indices {
            let name: &'a str = &rules[index].head.name.name;
            defined
                .entry(name)
                .or_insert_with(|| {
                    order.push(name);
                    Vec::new()
                })
                .push(index);
        }
        let mut queue: VecDeque<&'a str> = VecDeque::new();
        let mut queued: HashSet<&'a str> = HashSet::new();
        let enqueue_uses =
            |rule: &'a Rule, queue: &mut VecDeque<&'a str>, queued: &mut HashSet<&'a str>| {
                for literal in &rule.body {
                    literal.for_each_sentence(false, &mut |sentence, _| {
                        let name: &'a str = &sentence.name.name;
                        if defined.contains_key(name) && queued.insert(name) {
                            queue.push_back(name);
                        }
                    });
                }
            };
        for &index in used_first {
            enqueue_uses(&rules[index], &mut queue, &mut queued);
        }
        let mut items = Vec::new();
        let mut unused = order.iter();
        loop {
            let name = match queue.pop_front() {
                Some(name) => name,
                None => match unused.by_ref().find(|name| !queued.contains(*name)) {
                    Some(&name) => {
                        queued.insert(name);
                        name
                    }
                    None => break,
                },
            };
            let Some(definition) = defined.get(name) else {
                continue;
            };
            for &index in definition {
                enqueue_uses(&rules[index], &mut queue, &mut queued);
            }
            items.extend(self.rule_items(definition.iter().copied()));
        }
        items
    }

    /// Static facts, one item per relation: "index: 1, 2, 3."
    fn static_facts(&self, indices: &[usize]) -> Vec<Item> {
        struct Relation<'r> {
            name: &'r str,
            arity: usize,
            tuples: Vec<Vec<String>>,
            ranges: Vec<TextRange>,
        }
        let mut relations: Vec<Relation<'_>> = Vec::new();
        let mut by_name: HashMap<(&str, usize), usize> = HashMap::new();
        for &index in indices {
            let rule = &self.rules[index];
            let (name, arity) = (&*rule.head.name.name, rule.head.arity());
            let at = *by_name.entry((name, arity)).or_insert_with(|| {
                relations.push(Relation {
                    name,
                    arity,
                    tuples: Vec::new(),
                    ranges: Vec::new(),
                });
                relations.len() - 1
            });
            relations[at]
                .tuples
                .push(rule.head.args.iter().map(terms::term).collect());
            relations[at].ranges.push(rule.range);
        }
        relations
            .into_iter()
            .map(|relation| {
                let text = if relation.arity == 0 {
                    format!("{} holds", relation.name)
                } else {
                    format!("{}: {}", relation.name, facts::fact_list(&relation.tuples))
                };
                Item {
                    text: finish(&text),
                    ranges: relation.ranges,
                }
            })
            .collect()
    }
}

/// Ground fluents of one relation with one value (or none, in the holds form).
struct FluentGroup {
    relation: String,
    value: Option<String>,
    /// The places that vary, with the fact's position among the grouped facts.
    tuples: Vec<(Vec<String>, usize)>,
    ranges: Vec<TextRange>,
}

impl FluentGroup {
    /// The tuples the facts cover, products spelled with ranges: `(1..3, 1..3)` (ranged), or
    /// `(a, 1)`; with the position of the first fact each stands for.
    fn spelled(&self) -> Vec<(usize, Vec<String>, bool)> {
        facts::cover(&self.tuples)
            .into_iter()
            .flat_map(|product| {
                facts::spell(&product)
                    .into_iter()
                    .map(move |(tuple, ranged)| (product.first, tuple, ranged))
            })
            .collect()
    }

    /// "each cell (1..3, 1..3)", "control".
    fn subject(&self, tuple: &[String], ranged: bool) -> String {
        let each = if ranged { "each " } else { "" };
        format!("{each}{}", facts::with_args(&self.relation, tuple))
    }

    /// "each cell (1..3, 1..3) is b", "moved (wk) holds".
    fn phrase(&self, tuple: &[String], ranged: bool) -> Phrase {
        let subject = self.subject(tuple, ranged);
        match &self.value {
            Some(value) => Phrase::is(subject, value.clone(), Some(self.relation.clone())),
            None => Phrase::holds(subject, None),
        }
    }
}

/// Value-form facts that a range cannot group because their values differ, read as a sequence
/// when one place runs over consecutive names: "cell (a, 1) to cell (h, 1) are wr, wn, wb, wq,
/// wk, wb, wn and wr". Takes the facts it reads out of `singles`; returns (first position,
/// phrase, group) triples.
fn sequences(
    groups: &[FluentGroup],
    singles: &mut Vec<(usize, Vec<String>, usize)>,
) -> Vec<(usize, String, usize)> {
    let mut phrases = Vec::new();
    let arity = singles
        .iter()
        .map(|(_, tuple, _)| tuple.len())
        .max()
        .unwrap_or(0);
    for place in 0..arity {
        // (relation, arity, the other places) → the singles that differ at `place` only.
        type Row<'g> = (&'g str, usize, Vec<String>);
        let mut rows: Vec<Vec<usize>> = Vec::new();
        let mut by_row: HashMap<Row<'_>, usize> = HashMap::new();
        for (index, (_, tuple, group)) in singles.iter().enumerate() {
            if tuple.len() <= place {
                continue;
            }
            let mut others = tuple.clone();
            others.remove(place);
            let key = (groups[*group].relation.as_str(), tuple.len(), others);
            let at = *by_row.entry(key).or_insert_with(|| {
                rows.push(Vec::new());
                rows.len() - 1
            });
            rows[at].push(index);
        }
        let mut taken: Vec<usize> = Vec::new();
        for mut members in rows {
            let names: Vec<String> = members
                .iter()
                .map(|&index| singles[index].1[place].clone())
                .collect();
            if members.len() < 3 || facts::run(&names, 3).is_none() {
                continue;
            }
            members
                .sort_by(|&a, &b| facts::natural_order(&singles[a].1[place], &singles[b].1[place]));
            let values: Vec<String> = members
                .iter()
                .filter_map(|&index| groups[singles[index].2].value.clone())
                .collect();
            let (first_single, last_single) =
                (&singles[members[0]], &singles[members[members.len() - 1]]);
            let group = &groups[first_single.2];
            phrases.push((
                members
                    .iter()
                    .map(|&index| singles[index].0)
                    .min()
                    .unwrap_or(0),
                format!(
                    "{} to {} are {}",
                    group.subject(&first_single.1, false),
                    group.subject(&last_single.1, false),
                    join_list(&values, "and")
                ),
                first_single.2,
            ));
            taken.extend(members);
        }
        taken.sort_unstable();
        for index in taken.into_iter().rev() {
            singles.remove(index);
        }
    }
    phrases
}
