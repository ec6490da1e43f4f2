//! Chi-square feature selection: how far a feature's presence is from independent of the move
//! made, by Pearson's statistic over the 2 × C table (present or absent × the C moves).

/// The chi-square statistic of each feature against the move label.
///
/// `examples_per_move[c]` is how many training rows have move `c`; `present[j][c]` how many of
/// them hold feature `j`. For feature `j` with `a` rows holding it out of `n`, the expected count
/// of a cell is its row total times its column total over `n` (`a · n_c / n` present,
/// `(n − a) · n_c / n` absent), and the statistic sums `(observed − expected)² / expected` over
/// the cells whose expectation is not zero. A feature in every row or in none scores 0: it
/// cannot tell moves apart.
pub fn chi_square_scores(examples_per_move: &[usize], present: &[Vec<usize>]) -> Vec<f64> {
    let n: usize = examples_per_move.iter().sum();
    if n == 0 {
        return vec![0.0; present.len()];
    }
    let n = n as f64;
    present
        .iter()
        .map(|per_move| {
            let a: f64 = per_move.iter().sum::<usize>() as f64;
            let mut statistic = 0.0;
            for (&with, &total) in per_move.iter().zip(examples_per_move) {
                let total = total as f64;
                let with = with as f64;
                for (observed, row_total) in [(with, a), (total - with, n - a)] {
                    let expected = row_total * total / n;
                    if expected > 0.0 {
                        statistic += (observed - expected).powi(2) / expected;
                    }
                }
            }
            statistic
        })
        .collect()
}

/// The indices of the `k` highest scores, highest first; equal scores keep index order, so the
/// selection is repeatable. Fewer when there are fewer scores.
pub fn select_features(scores: &[f64], k: usize) -> Vec<usize> {
    let mut order: Vec<usize> = (0..scores.len()).collect();
    order.sort_by(|&x, &y| scores[y].total_cmp(&scores[x]).then(x.cmp(&y)));
    order.truncate(k);
    order
}
