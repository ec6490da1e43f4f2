//! Comments and blank lines: read off the syntax tree and attached to the rules they belong to.
//!
//! Every comment is kept, exactly once:
//! - a comment on the line where a top-level item ends trails that item (`(role x) ; first`);
//! - a comment alone on its line at the top level stays where it is among the items;
//! - inside a rule, a comment on the line where the head or a body literal ends trails it; a
//!   comment alone on its line goes before the next body literal, or after the rule when no
//!   literal follows (KIF cannot keep a line comment before the closing `)`);
//! - a comment inside a fact, a head or one body literal (between two terms) cannot stay there
//!   once the item is on one line: it moves, on its own line, before that item or literal.
//!
//! Blank lines between top-level items and comments are kept; a run of blank lines becomes one.

use tree_sitter::Node;

use crate::TextRange;
use crate::gdl::model::{Rule, RuleSet};

/// One comment: its markers (`;;` → 2) and the text after them, trailing blanks removed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Comment {
    pub range: TextRange,
    pub markers: usize,
    pub body: String,
}

impl Comment {
    /// The comment written with `marker` (`;` or `%`), as many times as in the source.
    pub(super) fn render(&self, marker: char) -> String {
        let mut text = marker.to_string().repeat(self.markers.max(1));
        text.push_str(&self.body);
        text
    }
}

/// Appends `comment`, if any, to the end of `line` after a space.
pub(super) fn trail(line: &mut String, comment: Option<&Comment>, marker: char) {
    if let Some(comment) = comment {
        line.push(' ');
        line.push_str(&comment.render(marker));
    }
}

impl Comment {
    /// The comment spanning `range` of `text`.
    fn at(text: &str, range: TextRange) -> Comment {
        let raw = text.get(range.start..range.end).unwrap_or_default();
        let markers = raw.chars().take_while(|&c| c == ';' || c == '%').count();
        Comment {
            range,
            markers,
            body: raw[markers..].trim_end().to_owned(),
        }
    }
}

/// Every comment of a KIF text that [`crate::syntax::kif_forms::read_kif`] accepts, in source
/// order.
pub(super) fn collect_from_clean_kif(text: &str) -> Vec<Comment> {
    crate::syntax::kif_forms::clean_kif_comment_ranges(text)
        .map(|range| Comment::at(text, range))
        .collect()
}

/// Every comment of the tree, in source order.
pub(super) fn collect(root: Node<'_>, text: &str) -> Vec<Comment> {
    let mut comments = Vec::new();
    let mut cursor = root.walk();
    let mut descend = true;
    loop {
        let node = cursor.node();
        if descend && node.kind() == "comment" {
            comments.push(Comment::at(
                text,
                TextRange::new(node.start_byte(), node.end_byte()),
            ));
        }
        if descend && cursor.goto_first_child() {
            continue;
        }
        if cursor.goto_next_sibling() {
            descend = true;
            continue;
        }
        if !cursor.goto_parent() {
            break;
        }
        descend = false;
    }
    comments
}

/// The file as the printer sees it: items and free-standing comments, in order.
pub(super) struct Layout<'r> {
    pub entries: Vec<Entry<'r>>,
}

pub(super) struct Entry<'r> {
    /// A blank line separates this entry from the previous one.
    pub blank_before: bool,
    pub kind: EntryKind<'r>,
}

pub(super) enum EntryKind<'r> {
    /// A comment on its own line at the top level.
    Comment(Comment),
    Rule(&'r Rule, RuleComments),
}

/// The comments printed inside a rule or after it on its last line.
#[derive(Default)]
pub(super) struct RuleComments {
    /// Trailing the head's line (`(<= (legal ...) ; why`).
    pub head: Option<Comment>,
    /// Per body literal: comments on their own lines before it.
    pub leading: Vec<Vec<Comment>>,
    /// Per body literal: the comment trailing its line.
    pub trailing: Vec<Option<Comment>>,
    /// The comment trailing the rule's last line.
    pub after: Option<Comment>,
}

impl RuleComments {
    fn new(literals: usize) -> Self {
        Self {
            head: None,
            leading: vec![Vec::new(); literals],
            trailing: vec![None; literals],
            after: None,
        }
    }

    /// Whether some comment must be printed inside the rule before the end of its last literal,
    /// so that the rule cannot stay on one line (one after the last literal can end the rule's
    /// line however the rule is laid out).
    pub(super) fn inside_before_last_literal_ends(&self) -> bool {
        let before_last = self.trailing.len().saturating_sub(1);
        self.head.is_some()
            || self.leading.iter().any(|comments| !comments.is_empty())
            || self.trailing[..before_last].iter().any(Option::is_some)
    }
}

/// Attaches `comments` to the rules of `rules` (see the module documentation).
pub(super) fn layout<'r>(rules: &'r RuleSet, comments: Vec<Comment>, text: &str) -> Layout<'r> {
    // Comments inside each rule, and those between items.
    let mut inside: Vec<Vec<Comment>> = vec![Vec::new(); rules.rules.len()];
    let mut top = Vec::new();
    for comment in comments {
        let after = rules
            .rules
            .partition_point(|rule| rule.range.start < comment.range.start);
        match after.checked_sub(1) {
            Some(index) if comment.range.end <= rules.rules[index].range.end => {
                inside[index].push(comment);
            }
            _ => top.push(comment),
        }
    }

    let blank_between = |end: Option<usize>, start: usize| {
        end.is_some_and(|end| {
            text.get(end..start)
                .unwrap_or_default()
                .matches('\n')
                .count()
                >= 2
        })
    };
    let mut entries: Vec<Entry<'r>> = Vec::new();
    let mut last_end: Option<usize> = None;
    // The entry of the last item, while nothing but blank space followed it.
    let mut last_rule: Option<usize> = None;
    let mut top = top.into_iter().peekable();
    let mut inside = inside.into_iter();
    for rule in &rules.rules {
        while let Some(comment) = top.next_if(|comment| comment.range.start < rule.range.start) {
            place_top_comment(comment, &mut entries, &mut last_end, &mut last_rule, text);
        }
        let (before, rule_comments, after) = attach(rule, inside.next().unwrap_or_default(), text);
        let mut blank = blank_between(last_end, rule.range.start);
        for comment in before {
            entries.push(Entry {
                blank_before: std::mem::take(&mut blank),
                kind: EntryKind::Comment(comment),
            });
        }
        entries.push(Entry {
            blank_before: blank,
            kind: EntryKind::Rule(rule, rule_comments),
        });
        last_rule = Some(entries.len() - 1);
        for comment in after {
            entries.push(Entry {
                blank_before: false,
                kind: EntryKind::Comment(comment),
            });
        }
        last_end = Some(rule.range.end);
    }
    for comment in top {
        place_top_comment(comment, &mut entries, &mut last_end, &mut last_rule, text);
    }
    Layout { entries }
}

fn place_top_comment(
    comment: Comment,
    entries: &mut Vec<Entry<'_>>,
    last_end: &mut Option<usize>,
    last_rule: &mut Option<usize>,
    text: &str,
) {
    let gap = last_end.map(|end| text.get(end..comment.range.start).unwrap_or_default());
    let end = comment.range.end;
    let on_item_line = gap.is_some_and(|gap| !gap.contains('\n'));
    let mut pending = Some(comment);
    if on_item_line
        && let Some(index) = *last_rule
        && let EntryKind::Rule(_, rule_comments) = &mut entries[index].kind
        && rule_comments.after.is_none()
    {
        rule_comments.after = pending.take();
    }
    if let Some(comment) = pending {
        let blank_before = gap.is_some_and(|gap| gap.matches('\n').count() >= 2);
        entries.push(Entry {
            blank_before,
            kind: EntryKind::Comment(comment),
        });
    }
    *last_rule = None;
    *last_end = Some(end);
}

/// The comments inside one rule: those that move before it, those printed inside it, and those
/// that move after it.
fn attach(
    rule: &Rule,
    comments: Vec<Comment>,
    text: &str,
) -> (Vec<Comment>, RuleComments, Vec<Comment>) {
    let mut before = Vec::new();
    let mut after = Vec::new();
    let mut attached = RuleComments::new(rule.body.len());
    let head = rule.head.range;
    let literal_ranges: Vec<TextRange> = rule.body.iter().map(|literal| literal.range()).collect();
    let within = |range: TextRange, comment: &Comment| {
        range.start < comment.range.start && comment.range.end <= range.end
    };
    let same_line = |end: usize, comment: &Comment| {
        !text
            .get(end..comment.range.start)
            .unwrap_or_default()
            .contains('\n')
    };
    for comment in comments {
        if comment.range.start < head.start || within(head, &comment) {
            before.push(comment);
            continue;
        }
        if let Some(index) = literal_ranges
            .iter()
            .position(|&range| within(range, &comment))
        {
            attached.leading[index].push(comment);
            continue;
        }
        // Between parts: after the head or after some literal.
        let previous = literal_ranges
            .iter()
            .rposition(|range| range.end <= comment.range.start);
        let previous_end = previous.map_or(head.end, |index| literal_ranges[index].end);
        let slot = match previous {
            Some(index) => &mut attached.trailing[index],
            None => &mut attached.head,
        };
        if same_line(previous_end, &comment) && slot.is_none() {
            *slot = Some(comment);
            continue;
        }
        let next = previous.map_or(0, |index| index + 1);
        match attached.leading.get_mut(next) {
            Some(leading) => leading.push(comment),
            None => after.push(comment),
        }
    }
    if rule.body.is_empty()
        && let Some(comment) = attached.head.take()
    {
        after.insert(0, comment);
    }
    (before, attached, after)
}

#[cfg(test)]
mod reading_tests {
    use super::*;
    use crate::Syntax;

    /// The comments read off a clean KIF text are the syntax tree's, in every place one can be.
    #[test]
    fn comments_read_off_clean_kif_are_the_trees() {
        let text = ";; header\n; second line\n(role x) ; trailing\n\n(<= (legal x (a)) ; head\n    ; own line\n    (true (b))) ; after\n;last without newline";
        assert!(crate::kif_forms::read_kif(text).is_some());
        let parse = crate::parse_text(Syntax::GdlKif, text, None);
        let from_tree = collect(parse.root(), text);
        assert_eq!(from_tree.len(), 7);
        assert_eq!(collect_from_clean_kif(text), from_tree);
    }
}
