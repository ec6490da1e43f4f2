//! The diagnostic model shared by every check and every front end.

use serde::Serialize;

/// A byte range in a file's text, end exclusive.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub struct TextRange {
    pub start: usize,
    pub end: usize,
}

impl TextRange {
    pub fn new(start: usize, end: usize) -> Self {
        debug_assert!(start <= end, "range {start}..{end} is reversed");
        Self { start, end }
    }

    pub fn empty(at: usize) -> Self {
        Self::new(at, at)
    }

    pub fn len(self) -> usize {
        self.end - self.start
    }

    pub fn is_empty(self) -> bool {
        self.start == self.end
    }

    pub fn contains(self, offset: usize) -> bool {
        self.start <= offset && offset < self.end
    }

    /// Whether a selection `range` touches this range, as range formatting reads it: an empty
    /// selection (a cursor) touches the ranges it stands in or at the edge of; any other
    /// selection, the ranges it overlaps.
    pub fn is_touched_by(self, range: TextRange) -> bool {
        if range.is_empty() {
            self.start <= range.start && range.start <= self.end
        } else {
            self.start < range.end && range.start < self.end
        }
    }

    /// The range moved by `delta` bytes, a wrapping addition: a move back is the two's
    /// complement of its length (`0usize.wrapping_sub(n)`).
    pub fn shifted(self, delta: usize) -> Self {
        Self {
            start: self.start.wrapping_add(delta),
            end: self.end.wrapping_add(delta),
        }
    }
}

impl From<std::ops::Range<usize>> for TextRange {
    fn from(range: std::ops::Range<usize>) -> Self {
        Self::new(range.start, range.end)
    }
}

impl From<TextRange> for std::ops::Range<usize> {
    fn from(range: TextRange) -> Self {
        range.start..range.end
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Info,
    Warning,
    Error,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Info => "info",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }
}

/// A secondary place a diagnostic points at, with a short note ("the `(` opened here").
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Label {
    pub range: TextRange,
    pub message: String,
}

/// Whether a fix may be applied without a person looking at it: what `ludeme check --fix`
/// applies (safe fixes) and what it leaves to `--unsafe-fixes`. The editor offers both.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Applicability {
    /// Ambiguous or inventive: one of several close names, or a part written from the
    /// manual's example, whose values the designer still has to choose.
    Unsafe,
    /// Keeps what the designer meant: the one close name of a misspelling, a spelling the
    /// checker already reads the same way, a form written the way every reader agrees on.
    Safe,
}

impl Applicability {
    pub fn as_str(self) -> &'static str {
        match self {
            Applicability::Safe => "safe",
            Applicability::Unsafe => "unsafe",
        }
    }
}

/// A change to the text that resolves a diagnostic, offered by editors as a quick fix and
/// applied by `ludeme check --fix` when it is safe.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Fix {
    /// What applying it does, as an editor shows it: "Replace with `in-a-row`".
    pub title: String,
    /// Replacements (range, new text), non-overlapping.
    pub edits: Vec<(TextRange, String)>,
    pub applicability: Applicability,
}

/// One problem found in a file.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Diagnostic {
    /// Stable kebab-case code such as `ludi/syntax-error`; `ludeme explain CODE` prints its long form.
    pub code: &'static str,
    pub severity: Severity,
    /// The primary span: the offending part of the text.
    pub range: TextRange,
    /// What is wrong and what to do about it.
    pub message: String,
    pub labels: Vec<Label>,
    /// Fixes the check knows, best first (a "did you mean" names them).
    pub fixes: Vec<Fix>,
}

impl Diagnostic {
    /// A diagnostic for `rule`, with the rule's severity.
    pub fn new(rule: &crate::rules::Rule, range: TextRange, message: impl Into<String>) -> Self {
        Self {
            code: rule.code,
            severity: rule.severity,
            range,
            message: message.into(),
            labels: Vec::new(),
            fixes: Vec::new(),
        }
    }

    /// Adds the fix that replaces `range` with `replacement`, titled "Replace with `...`".
    pub fn with_replacement(
        mut self,
        range: TextRange,
        replacement: impl Into<String>,
        applicability: Applicability,
    ) -> Self {
        let replacement = replacement.into();
        self.fixes.push(Fix {
            title: format!("Replace with `{replacement}`"),
            edits: vec![(range, replacement)],
            applicability,
        });
        self
    }

    /// Adds one replacement of `range` per "did you mean" suggestion, best first. A lone
    /// suggestion is safe; among several, picking one is a guess, so each is unsafe.
    pub fn with_suggestions(mut self, range: TextRange, suggestions: &[&str]) -> Self {
        let applicability = if suggestions.len() == 1 {
            Applicability::Safe
        } else {
            Applicability::Unsafe
        };
        for suggestion in suggestions {
            self = self.with_replacement(range, *suggestion, applicability);
        }
        self
    }

    /// The fix `--fix` applies: the first safe one, or with `unsafe_fixes` the first of all.
    pub fn fix_to_apply(&self, unsafe_fixes: bool) -> Option<&Fix> {
        self.fixes
            .iter()
            .find(|fix| unsafe_fixes || fix.applicability == Applicability::Safe)
    }

    /// Replaces every range of the diagnostic (its span, labels and fixes) by `map` of it: how
    /// a diagnostic found in one part of a file on its own is placed in the file.
    pub fn map_ranges(&mut self, map: impl Fn(TextRange) -> TextRange) {
        self.range = map(self.range);
        for label in &mut self.labels {
            label.range = map(label.range);
        }
        for fix in &mut self.fixes {
            for (range, _) in &mut fix.edits {
                *range = map(*range);
            }
        }
    }

    pub fn with_label(mut self, range: TextRange, message: impl Into<String>) -> Self {
        self.labels.push(Label {
            range,
            message: message.into(),
        });
        self
    }
}
