//! Stanford GDL: the rule model shared by both syntaxes, its lowering, and the static checks.

pub mod checks;
pub mod engine;
pub mod english;
pub mod format;
pub mod keywords;
mod lower;
pub mod model;
pub mod occurrences;
pub mod simulate;

pub use checks::{gdl_diagnostics, gdl_form_diagnostics};
pub use english::{GameExplanation, explain_rule, gdl_explanation};
pub use format::{FormatError, format_gdl, format_gdl_text, gdl_formatted};
pub use lower::{GdlForm, Lowered, gdl_forms, gdl_rules, infix_in_kif, lower_form};

use crate::rules::Rule;

/// Every diagnostic rule of the GDL layer (lowering and checks).
pub fn rules() -> impl Iterator<Item = &'static Rule> {
    lower::RULES.iter().chain(checks::RULES.iter()).copied()
}
