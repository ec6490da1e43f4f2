//! Terms in English: names as written, variables as capitals, function terms as
//! `name (argument, ...)`.

use crate::gdl::model::{Compound, Term};

/// Terms nested deeper than this are cut short with `…`: real games nest two or three levels,
/// and the cut keeps rendering linear on adversarial input.
const MAX_DEPTH: usize = 24;

/// A variable as a reader sees it: `?m` → `M`, `?player` → `Player`, `?x1` → `X1`. Infix
/// variables are capitalised already and stay as written.
pub fn variable(name: &str) -> String {
    let bare = name.strip_prefix('?').unwrap_or(name);
    let mut chars = bare.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => name.to_owned(),
    }
}

/// A term: constants and numbers as written, variables as capitals, function terms as
/// `mark (M, N)`.
pub fn term(term: &Term) -> String {
    let mut out = String::new();
    write_term(term, 0, &mut out);
    out
}

/// A sentence or function term: `mark (M, N)`, or the bare name when it has no arguments.
pub fn compound(compound: &Compound) -> String {
    let mut out = String::new();
    write_compound(compound, 0, &mut out);
    out
}

/// `name (arguments)` for a head and some of its arguments (used for `cell (M, N)` in
/// "cell (M, N) is b", where the last argument is read as the value).
pub fn name_with(name: &str, args: &[Term]) -> String {
    if args.is_empty() {
        return name.to_owned();
    }
    let mut out = String::from(name);
    out.push(' ');
    write_tuple(args, 0, &mut out);
    out
}

fn write_term(term: &Term, depth: usize, out: &mut String) {
    match term {
        Term::Constant(symbol) => out.push_str(&symbol.name),
        Term::Variable(symbol) => out.push_str(&variable(&symbol.name)),
        Term::Function(function) => write_compound(function, depth, out),
    }
}

fn write_compound(compound: &Compound, depth: usize, out: &mut String) {
    out.push_str(&compound.name.name);
    if !compound.args.is_empty() {
        out.push(' ');
        write_tuple(&compound.args, depth, out);
    }
}

fn write_tuple(args: &[Term], depth: usize, out: &mut String) {
    if depth >= MAX_DEPTH {
        out.push_str("(…)");
        return;
    }
    out.push('(');
    for (index, arg) in args.iter().enumerate() {
        if index > 0 {
            out.push_str(", ");
        }
        write_term(arg, depth + 1, out);
    }
    out.push(')');
}

/// Whether a term has no variables.
pub fn is_ground(term: &Term) -> bool {
    match term {
        Term::Constant(_) => true,
        Term::Variable(_) => false,
        Term::Function(function) => function.args.iter().all(is_ground),
    }
}

/// Joins items as English lists: `a`, `a and b`, `a, b and c`; with an Oxford comma when an item
/// holds an `and` or `or` of its own or starts with `neither`, so that the last item reads as one.
pub fn join_list(items: &[String], conjunction: &str) -> String {
    match items {
        [] => String::new(),
        [only] => only.clone(),
        [init @ .., last] => {
            let nested = items.iter().any(|item| {
                item.contains(" and ")
                    || item.contains(" or ")
                    || item.starts_with("neither ")
                    || item.starts_with("none of ")
            });
            let mut out = init.join(", ");
            if nested {
                out.push(',');
            }
            out.push(' ');
            out.push_str(conjunction);
            out.push(' ');
            out.push_str(last);
            out
        }
    }
}

/// Whether `text` has a comma outside parentheses: a list, rather than one condition.
pub fn has_list_comma(text: &str) -> bool {
    let mut depth = 0usize;
    for c in text.chars() {
        match c {
            '(' => depth += 1,
            ')' => depth = depth.saturating_sub(1),
            ',' if depth == 0 => return true,
            _ => {}
        }
    }
    false
}

/// Joins items with "and" as [`join_list`] does, or with semicolons when an item is itself a
/// list: "a; b, c and d; and e".
pub fn join_and_lists(items: &[String]) -> String {
    if items.len() > 1 && items.iter().any(|item| has_list_comma(item)) {
        let (init, last) = items.split_at(items.len() - 1);
        format!("{}; and {}", init.join("; "), last[0])
    } else {
        join_list(items, "and")
    }
}
