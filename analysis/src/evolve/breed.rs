//! Breeding, as the paper's §V.A describes it: parents chosen by stochastic universal sampling,
//! crossover with one parent as the template and elements of the other crossed in with 10 %
//! likelihood, then mutation of each element with 10 % likelihood (changing, adding or removing
//! elements within their type). Nothing here judges the child: the checker does.

use rand::RngExt;
use rand::rngs::SmallRng;

use super::genome::{Gene, GenePool, gene_type, words_of_kind};
use crate::ludi::schema::{self, Kind};

/// The likelihood of crossing an element in from the other parent, and of mutating one (§V.A).
pub const CROSSOVER_RATE: f64 = 0.1;
pub const MUTATION_RATE: f64 = 0.1;

/// The largest integer mutation makes: larger boards and lines only slow the probe down.
const LARGEST_INTEGER: i64 = 19;

/// Stochastic universal sampling (Baker 1987, the paper's reference 33): two pointers spaced evenly
/// over the cumulative fitness, from one random start. `fitness` is sorted best first and may
/// be negative: it is shifted so that the worst member keeps a small chance. Returns two
/// indexes into `fitness`.
pub fn select_parents(fitness: &[f64], rng: &mut SmallRng) -> (usize, usize) {
    if fitness.len() < 2 {
        return (0, 0);
    }
    let worst = fitness.iter().copied().fold(f64::INFINITY, f64::min);
    let best = fitness.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    // The worst keeps a twentieth of the spread (or 1 when all are equal).
    let floor = ((best - worst) / 20.0).max(1e-9);
    let shifted: Vec<f64> = fitness.iter().map(|f| f - worst + floor).collect();
    let total: f64 = shifted.iter().sum();
    let spacing = total / 2.0;
    let start = rng.random_range(0.0..spacing);
    let pick = |pointer: f64| {
        let mut sum = 0.0;
        for (index, value) in shifted.iter().enumerate() {
            sum += value;
            if pointer < sum {
                return index;
            }
        }
        shifted.len() - 1
    };
    (pick(start), pick(start + spacing))
}

/// The template with elements of `donor` crossed in: each element of the template (the game
/// itself and its name aside) is replaced, with [`CROSSOVER_RATE`] likelihood, by an element of
/// the donor of the same type, if the donor has one. Returns the child and how many elements
/// were crossed in.
pub fn crossover(template: &Gene, donor: &Gene, rng: &mut SmallRng) -> (Gene, usize) {
    let donor_pool = GenePool::new([donor]);
    let mut child = template.clone();
    let mut crossed = 0;
    cross_items(&mut child, &donor_pool, rng, &mut crossed);
    (child, crossed)
}

fn cross_items(gene: &mut Gene, donor: &GenePool, rng: &mut SmallRng, crossed: &mut usize) {
    let Gene::List { head, items } = gene else {
        return;
    };
    let is_game = head.as_deref() == Some("game");
    for (index, item) in items.iter_mut().enumerate() {
        if is_game && index == 0 {
            continue; // the name
        }
        let item_type = gene_type(item, head.as_deref());
        if let Some(candidates) = item_type.and_then(|t| donor.by_type.get(&t))
            && !candidates.is_empty()
            && rng.random_bool(CROSSOVER_RATE)
        {
            *item = candidates[rng.random_range(0..candidates.len())].clone();
            *crossed += 1;
            continue;
        }
        cross_items(item, donor, rng, crossed);
    }
}

/// Mutates `game` in place: each element (the game itself and its name aside) is visited and,
/// with [`MUTATION_RATE`] likelihood, changed (a number by a step of 1 or 2, a word for another
/// word of its kind, a list for another element of its type from `pool`), removed (an element
/// of a list that keeps others, unless a part its ludeme requires), or given a new element of
/// a kind seen inside lists of its type in `pool` (not a second copy of a part). These are the
/// paper's context-dependent constraints: they spare the checker children it could only
/// refuse. Returns how many mutations were made.
pub fn mutate(game: &mut Gene, pool: &GenePool, rng: &mut SmallRng) -> usize {
    let mut made = 0;
    mutate_items(game, pool, rng, &mut made);
    made
}

fn mutate_items(gene: &mut Gene, pool: &GenePool, rng: &mut SmallRng, made: &mut usize) {
    let Gene::List { head, items } = gene else {
        return;
    };
    let is_game = head.as_deref() == Some("game");
    let mut index = 0;
    while index < items.len() {
        if is_game && index == 0 {
            index += 1;
            continue;
        }
        let item_type = gene_type(&items[index], head.as_deref());
        if let Some(item_type) = item_type
            && rng.random_bool(MUTATION_RATE)
        {
            match rng.random_range(0..4) {
                // Remove (a list keeps at least one element, the game its name, a ludeme
                // the parts it cannot do without).
                0 if items.len() > 1 + usize::from(is_game)
                    && !is_mandatory_part(head.as_deref(), &items[index]) =>
                {
                    items.remove(index);
                    *made += 1;
                    continue;
                }
                // Add, inside it, an element seen inside lists of its type (not a second copy
                // of a part, which a ludeme has once).
                1 => {
                    if let Some(added) = pick(pool.children_of.get(&item_type), rng)
                        && let Gene::List { items: inner, .. } = &mut items[index]
                        && !(is_part(&added)
                            && inner.iter().any(|item| item.head() == added.head()))
                    {
                        inner.push(added);
                        *made += 1;
                    }
                }
                // Change.
                _ => {
                    if let Some(changed) = change(&items[index], &item_type, pool, rng) {
                        items[index] = changed;
                        *made += 1;
                        index += 1;
                        continue;
                    }
                }
            }
        }
        mutate_items(&mut items[index], pool, rng, made);
        index += 1;
    }
}

/// Whether `gene` is a part of a ludeme (`board`, `size`, `end`, ...), which it has at most once.
fn is_part(gene: &Gene) -> bool {
    gene.head()
        .is_some_and(|head| schema::named(head).any(|ludeme| ludeme.kind == Kind::Part))
}

/// Whether `gene` is a part the ludeme `parent` cannot do without (the game's board and end, a
/// board's size): removing it could only make a child the checker refuses.
fn is_mandatory_part(parent: Option<&str>, gene: &Gene) -> bool {
    let (Some(parent), Some(head)) = (parent, gene.head()) else {
        return false;
    };
    is_part(gene)
        && schema::named(parent).any(|ludeme| {
            ludeme
                .params
                .iter()
                .any(|param| param.name == head && !param.is_optional())
        })
}

fn pick(genes: Option<&Vec<Gene>>, rng: &mut SmallRng) -> Option<Gene> {
    let genes = genes.filter(|genes| !genes.is_empty())?;
    Some(genes[rng.random_range(0..genes.len())].clone())
}

/// Another element of the same type: a number one or two steps away, another word of the same
/// kind, another element of the pool.
fn change(gene: &Gene, gene_type: &str, pool: &GenePool, rng: &mut SmallRng) -> Option<Gene> {
    match gene {
        Gene::Atom {
            text,
            string: false,
        } => {
            if let Ok(value) = text.parse::<i64>() {
                let step = [-2, -1, 1, 2][rng.random_range(0..4)];
                let changed = (value + step).clamp(1, LARGEST_INTEGER.max(value));
                return (changed != value).then(|| Gene::Atom {
                    text: changed.to_string(),
                    string: false,
                });
            }
            let words: Vec<&str> = words_of_kind(gene_type)
                .into_iter()
                .filter(|word| word != text)
                .collect();
            if words.is_empty() {
                return None;
            }
            Some(Gene::Atom {
                text: words[rng.random_range(0..words.len())].to_owned(),
                string: false,
            })
        }
        Gene::Atom { .. } => None,
        Gene::List { .. } => pick(pool.by_type.get(gene_type), rng).filter(|other| other != gene),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn universal_sampling_prefers_the_fit_but_reaches_everyone() {
        let fitness = [3.0, 1.0, 0.0, -1.0];
        let mut counts = [0usize; 4];
        let mut rng = SmallRng::seed_from_u64(1);
        for _ in 0..4000 {
            let (a, b) = select_parents(&fitness, &mut rng);
            counts[a] += 1;
            counts[b] += 1;
        }
        assert!(counts[0] > counts[1] && counts[1] > counts[2] && counts[2] > counts[3]);
        assert!(counts[3] > 0, "{counts:?}");
    }

    /// Tic-Tac-Toe named T, and the pool of its genes.
    fn tic_tac_toe() -> (Gene, GenePool) {
        let game = Gene::read_game(
            "(game T (players White Black) (board (tiling square) (size 3 3)) (end (All win (in-a-row 3))))",
        )
        .expect("a game");
        let pool = GenePool::new([&game]);
        (game, pool)
    }

    #[test]
    fn mutation_keeps_the_name_and_changes_within_types() {
        let (game, pool) = tic_tac_toe();
        let mut rng = SmallRng::seed_from_u64(7);
        let mut changed = 0;
        for _ in 0..200 {
            let mut child = game.clone();
            if mutate(&mut child, &pool, &mut rng) > 0 {
                changed += 1;
            }
            assert_eq!(child.game_name(), Some("T"));
            assert_eq!(child.head(), Some("game"));
        }
        assert!(changed > 50, "{changed} of 200 mutated");
    }

    #[test]
    fn mutation_never_removes_a_required_part_nor_adds_a_second_copy() {
        let (game, pool) = tic_tac_toe();
        let mut rng = SmallRng::seed_from_u64(11);
        for _ in 0..300 {
            let mut child = game.clone();
            mutate(&mut child, &pool, &mut rng);
            let mut text = String::new();
            child.write(&mut text);
            for part in ["(players", "(board", "(end", "(size", "(tiling"] {
                assert_eq!(text.matches(part).count(), 1, "{part} in {text}");
            }
        }
    }
}
