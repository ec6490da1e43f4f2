//! Many ground facts in few words: products of argument ranges ("each cell (1..3, 1..3) is b"),
//! value lists ("index: 1, 2, 3"), and chains ("succ: 1 → 2 → 3").

use std::cmp::Ordering;
use std::collections::HashMap;

use super::terms::join_list;

/// Lists longer than this are cut: "… and 40 more".
const MAX_LISTED: usize = 64;

/// A set of facts that differ only in some places: one set of names per place, every
/// combination being a fact.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Product {
    pub places: Vec<Vec<String>>,
    /// The position (in source order) of the first fact it covers.
    pub first: usize,
}

/// Covers the tuples (each with its position in source order) by products, merging tuples that
/// differ in one place at a time, so that a full board `(1..3, 1..3)` becomes one product. Every
/// product covers only given tuples; the result is ordered by first appearance.
pub fn cover(tuples: &[(Vec<String>, usize)]) -> Vec<Product> {
    let mut products: Vec<Product> = Vec::with_capacity(tuples.len());
    let mut seen: HashMap<&[String], ()> = HashMap::new();
    for (tuple, first) in tuples {
        if seen.insert(tuple.as_slice(), ()).is_none() {
            products.push(Product {
                places: tuple.iter().map(|name| vec![name.clone()]).collect(),
                first: *first,
            });
        }
    }
    let arity = tuples.first().map_or(0, |(tuple, _)| tuple.len());
    // Merging the last place first or the first place first can give different covers (rows of
    // a board versus columns); keep the one that reads in fewer phrases.
    let mut best: Option<(usize, Vec<Product>)> = None;
    for places in [
        (0..arity).rev().collect::<Vec<_>>(),
        (0..arity).collect::<Vec<_>>(),
    ] {
        let mut candidate = products.clone();
        for _round in 0..2 {
            for &place in &places {
                candidate = merge_on(candidate, place);
            }
        }
        let phrases: usize = candidate.iter().map(|product| spell(product).len()).sum();
        if best.as_ref().is_none_or(|(fewest, _)| phrases < *fewest) {
            best = Some((phrases, candidate));
        }
    }
    let mut products = best.map(|(_, products)| products).unwrap_or_default();
    products.sort_by_key(|product| product.first);
    products
}

/// Merges the products that agree everywhere but at `place`.
fn merge_on(products: Vec<Product>, place: usize) -> Vec<Product> {
    let mut merged: Vec<Product> = Vec::with_capacity(products.len());
    let mut grown = Vec::new();
    let mut index: HashMap<Vec<Vec<String>>, usize> = HashMap::new();
    for product in products {
        let mut key = product.places.clone();
        key.remove(place);
        match index.get(&key) {
            Some(&at) => {
                let target = &mut merged[at];
                target.places[place].extend(product.places[place].iter().cloned());
                target.first = target.first.min(product.first);
                grown.push(at);
            }
            None => {
                index.insert(key, merged.len());
                merged.push(product);
            }
        }
    }
    // Sorted once each, after every merge into it: sorting at each merge made a relation of n
    // facts cost n² log n (a million `init` facts never finished).
    grown.sort_unstable();
    grown.dedup();
    for at in grown {
        let names = &mut merged[at].places[place];
        names.sort_by(|a, b| natural_order(a, b));
        names.dedup();
    }
    merged
}

/// Numbers by value first; then numbered names (`c2`, `c10`) by prefix and number; then other
/// names alphabetically. A total order (a sort key), as sorting requires.
pub fn natural_order(a: &str, b: &str) -> Ordering {
    sort_key(a).cmp(&sort_key(b))
}

fn sort_key(name: &str) -> (u8, &str, u64, &str) {
    match numbered(name) {
        Some(("", number)) => (0, "", number, name),
        Some((prefix, number)) => (1, prefix, number, name),
        None => (2, "", 0, name),
    }
}

/// `lo..hi` when the names are at least `min` consecutive integers (`1..8`), numbered names with
/// one prefix (`c1..c8`, `level1..level15`) or single letters (`a..h`), in any order.
pub fn run(names: &[String], min: usize) -> Option<String> {
    if names.len() < min.max(2) {
        return None;
    }
    let mut sorted: Vec<&String> = names.iter().collect();
    sorted.sort_by(|a, b| natural_order(a, b));
    let consecutive = sorted.windows(2).all(|pair| follows(pair[0], pair[1]));
    let (first, last) = (sorted.first()?, sorted.last()?);
    consecutive.then(|| format!("{first}..{last}"))
}

fn single_letter(name: &str) -> Option<char> {
    let mut chars = name.chars();
    match (chars.next(), chars.next()) {
        (Some(letter), None) if letter.is_ascii_alphabetic() => Some(letter),
        _ => None,
    }
}

/// A name as a prefix and a number: `c12` → (`c`, 12), `7` → (``, 7).
fn numbered(name: &str) -> Option<(&str, u64)> {
    let digits = name.len() - name.trim_end_matches(|c: char| c.is_ascii_digit()).len();
    if digits == 0 || digits > 18 {
        return None;
    }
    let (prefix, number) = name.split_at(name.len() - digits);
    if number.len() > 1 && number.starts_with('0') {
        return None;
    }
    Some((prefix, number.parse().ok()?))
}

/// Whether `b` comes right after `a`: the next integer, the next numbered name with the same
/// prefix, or the next letter.
fn follows(a: &str, b: &str) -> bool {
    if let (Some((prefix_a, x)), Some((prefix_b, y))) = (numbered(a), numbered(b)) {
        return prefix_a == prefix_b && x.checked_add(1) == Some(y);
    }
    matches!((single_letter(a), single_letter(b)), (Some(x), Some(y)) if y as u32 == x as u32 + 1)
}

/// The tuples a product stands for, as rendered places: each place a name or a range `1..3`
/// (`1..2` too: both read as "each").
/// A place whose names form no range is spelled out, one tuple per name. The flag says whether
/// the tuple stands for several facts (has a range).
pub fn spell(product: &Product) -> Vec<(Vec<String>, bool)> {
    let mut tuples: Vec<(Vec<String>, bool)> = vec![(Vec::new(), false)];
    for place in &product.places {
        let choices: Vec<(String, bool)> = match place.as_slice() {
            [only] => vec![(only.clone(), false)],
            names => match run(names, 2) {
                Some(range) => vec![(range, true)],
                None => names.iter().map(|name| (name.clone(), false)).collect(),
            },
        };
        tuples = tuples
            .into_iter()
            .flat_map(|(tuple, ranged)| {
                choices.iter().map(move |(choice, is_range)| {
                    let mut tuple = tuple.clone();
                    tuple.push(choice.clone());
                    (tuple, ranged || *is_range)
                })
            })
            .collect();
    }
    tuples
}

/// `name (a, b)`, or `name` alone without arguments.
pub fn with_args(name: &str, args: &[String]) -> String {
    if args.is_empty() {
        name.to_owned()
    } else {
        format!("{name} ({})", args.join(", "))
    }
}

/// The facts of one static relation as a list: "1, 2, 3" (runs of four or more as `1..8`),
/// a chain "1 → 2 → 3" for a successor relation, or tuples "(white, black), (black, white)".
pub fn fact_list(tuples: &[Vec<String>]) -> String {
    let arity = tuples.first().map_or(0, Vec::len);
    if arity == 1 {
        let values: Vec<String> = tuples.iter().map(|tuple| tuple[0].clone()).collect();
        return capped(compress_runs(&values));
    }
    if arity == 2
        && let Some(chain) = chain(tuples)
    {
        return chain;
    }
    capped(
        tuples
            .iter()
            .map(|tuple| format!("({})", tuple.join(", ")))
            .collect(),
    )
}

/// Joins with commas, listing at most [`MAX_LISTED`] items.
fn capped(items: Vec<String>) -> String {
    if items.len() > MAX_LISTED {
        let rest = items.len() - MAX_LISTED;
        format!("{}, … and {rest} more", items[..MAX_LISTED].join(", "))
    } else {
        items.join(", ")
    }
}

/// Replaces maximal runs (in the given order) of four or more consecutive integers or letters
/// by `lo..hi`.
fn compress_runs(values: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    let mut start = 0;
    while start < values.len() {
        let mut end = start + 1;
        while end < values.len() && follows(&values[end - 1], &values[end]) {
            end += 1;
        }
        if end - start >= 4 {
            out.push(format!("{}..{}", values[start], values[end - 1]));
        } else {
            out.extend(values[start..end].iter().cloned());
        }
        start = end;
    }
    out
}

/// Binary facts forming one chain `a → b → c` (each element at most once on each side, all
/// linked): the successor relations of boards and counters. Long runs of consecutive integers
/// are shortened: `1 → 2 → 3 → … → 201`.
fn chain(tuples: &[Vec<String>]) -> Option<String> {
    let mut next: HashMap<&str, &str> = HashMap::new();
    let mut has_previous: HashMap<&str, ()> = HashMap::new();
    for tuple in tuples {
        let (a, b) = (tuple[0].as_str(), tuple[1].as_str());
        if next.insert(a, b).is_some() || has_previous.insert(b, ()).is_some() {
            return None;
        }
    }
    let mut starts = tuples
        .iter()
        .map(|tuple| tuple[0].as_str())
        .filter(|a| !has_previous.contains_key(a));
    let start = starts.next()?;
    if starts.next().is_some() {
        return None;
    }
    let mut elements = vec![start];
    let mut at = start;
    while let Some(&following) = next.get(at) {
        elements.push(following);
        at = following;
        if elements.len() > tuples.len() + 1 {
            return None;
        }
    }
    if elements.len() != tuples.len() + 1 {
        return None;
    }
    let consecutive = elements.windows(2).all(|pair| follows(pair[0], pair[1]));
    let shown: Vec<&str> = if consecutive && elements.len() > 10 {
        let mut shown = elements[..3].to_vec();
        shown.push("…");
        shown.push(elements[elements.len() - 1]);
        shown
    } else if elements.len() > MAX_LISTED {
        let mut shown = elements[..MAX_LISTED].to_vec();
        shown.push("…");
        shown.push(elements[elements.len() - 1]);
        shown
    } else {
        elements
    };
    Some(shown.join(" → "))
}

/// An English list ("a, b or c"), cut after [`MAX_LISTED`] items: "a, b, … and 40 more".
pub fn capped_list(items: &[String], conjunction: &str) -> String {
    if items.len() > MAX_LISTED {
        let rest = items.len() - MAX_LISTED;
        format!("{}, … and {rest} more", items[..MAX_LISTED].join(", "))
    } else {
        join_list(items, conjunction)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A relation of many facts is one product read as a range, in time about linear in the
    /// facts: sorting the merged names at every merge made 100,000 facts take minutes.
    #[test]
    fn many_facts_of_one_place_become_one_range() {
        let tuples: Vec<(Vec<String>, usize)> = (0..100_000)
            .rev()
            .enumerate()
            .map(|(position, number)| (vec![number.to_string()], position))
            .collect();
        let started = std::time::Instant::now();
        let products = cover(&tuples);
        assert_eq!(products.len(), 1);
        assert_eq!(
            spell(&products[0]),
            vec![(vec!["0..99999".to_owned()], true)]
        );
        // Linear work takes well under a second even unoptimised; quadratic took minutes.
        assert!(started.elapsed() < std::time::Duration::from_secs(30));
    }
}
