//! The classifier: multivariate (Bernoulli) naive Bayes with Laplace smoothing over the
//! features chi-square selection keeps, ranking only the legal moves of a state.

use std::collections::{BTreeMap, HashMap};

use super::chi_square::{chi_square_scores, select_features};

/// A trained model of one player: per move seen in training, its prior and the probability of
/// each selected feature given that move.
#[derive(Clone, Debug)]
pub struct MoveModel {
    /// The selected features, most telling first, with their index in the model.
    features: HashMap<String, usize>,
    feature_names: Vec<String>,
    /// The moves seen in training (the label vocabulary).
    moves: HashMap<String, usize>,
    /// Per move, `ln P(move)`: its share of the training rows.
    log_prior: Vec<f64>,
    /// Per move, `Σ_j ln(1 − θ_j)` over the selected features: the score of a row holding none.
    log_all_absent: Vec<f64>,
    /// Per move and feature, `ln θ_j − ln(1 − θ_j)`: what holding feature `j` adds.
    log_odds: Vec<Vec<f64>>,
    /// The chi-square statistic of each selected feature, in `feature_names` order.
    chi_square: Vec<f64>,
}

impl MoveModel {
    /// Trains on `rows` (each a state's features and the move made), keeping the `select`
    /// features with the highest chi-square statistic (all of them when `None`). The feature
    /// vocabulary is what the rows hold; a feature never seen is ignored when ranking.
    ///
    /// With `n_c` rows of move `c`, `k_cj` of which hold feature `j`, Laplace smoothing gives
    /// `θ_cj = (k_cj + 1) / (n_c + 2)`, so that no feature seen or unseen with a move rules
    /// the move out; the prior is `n_c / n`.
    pub fn train(rows: &[(Vec<String>, String)], select: Option<usize>) -> MoveModel {
        // Sorted vocabularies: the model does not depend on hash order.
        let mut move_names: BTreeMap<&str, usize> = BTreeMap::new();
        let mut feature_vocabulary: BTreeMap<&str, usize> = BTreeMap::new();
        for (features, chosen) in rows {
            move_names.insert(chosen, 0);
            for feature in features {
                feature_vocabulary.insert(feature, 0);
            }
        }
        for (index, slot) in move_names.values_mut().enumerate() {
            *slot = index;
        }
        for (index, slot) in feature_vocabulary.values_mut().enumerate() {
            *slot = index;
        }
        let move_count = move_names.len();
        let mut examples_per_move = vec![0usize; move_count];
        // Feature-major: present[j][c].
        let mut present = vec![vec![0usize; move_count]; feature_vocabulary.len()];
        for (features, chosen) in rows {
            let c = move_names[chosen.as_str()];
            examples_per_move[c] += 1;
            let mut seen: Vec<usize> = features
                .iter()
                .map(|f| feature_vocabulary[f.as_str()])
                .collect();
            // A feature listed twice in a row is still one 0/1 feature.
            seen.sort_unstable();
            seen.dedup();
            for j in seen {
                present[j][c] += 1;
            }
        }
        let scores = chi_square_scores(&examples_per_move, &present);
        let kept = select_features(&scores, select.unwrap_or(scores.len()));
        let vocabulary: Vec<&str> = feature_vocabulary.keys().copied().collect();
        let total: usize = examples_per_move.iter().sum();
        let mut log_prior = Vec::with_capacity(move_count);
        let mut log_all_absent = Vec::with_capacity(move_count);
        let mut log_odds = Vec::with_capacity(move_count);
        for (c, &n_c) in examples_per_move.iter().enumerate() {
            log_prior.push((n_c as f64 / total as f64).ln());
            let mut absent = 0.0;
            let mut odds = Vec::with_capacity(kept.len());
            for &j in &kept {
                let theta = (present[j][c] as f64 + 1.0) / (n_c as f64 + 2.0);
                absent += (1.0 - theta).ln();
                odds.push(theta.ln() - (1.0 - theta).ln());
            }
            log_all_absent.push(absent);
            log_odds.push(odds);
        }
        let feature_names: Vec<String> = kept.iter().map(|&j| vocabulary[j].to_owned()).collect();
        MoveModel {
            features: feature_names
                .iter()
                .enumerate()
                .map(|(i, name)| (name.clone(), i))
                .collect(),
            feature_names,
            moves: move_names
                .into_iter()
                .map(|(name, index)| (name.to_owned(), index))
                .collect(),
            log_prior,
            log_all_absent,
            log_odds,
            chi_square: kept.iter().map(|&j| scores[j]).collect(),
        }
    }

    /// The selected features with their chi-square statistic, most telling first.
    pub fn selected_features(&self) -> impl Iterator<Item = (&str, f64)> {
        self.feature_names
            .iter()
            .map(String::as_str)
            .zip(self.chi_square.iter().copied())
    }

    /// How many moves training saw.
    pub fn move_vocabulary(&self) -> usize {
        self.moves.len()
    }

    /// `ln P(move) + ln P(features | move)` for a state holding `features` (the unnormalised
    /// log posterior); `None` for a move training never saw.
    pub fn log_score(&self, features: &[String], name: &str) -> Option<f64> {
        let c = *self.moves.get(name)?;
        let mut held: Vec<usize> = features
            .iter()
            .filter_map(|f| self.features.get(f).copied())
            .collect();
        held.sort_unstable();
        held.dedup();
        Some(
            self.log_prior[c]
                + self.log_all_absent[c]
                + held.iter().map(|&j| self.log_odds[c][j]).sum::<f64>(),
        )
    }

    /// The legal moves (by name) of a state holding `features`, as indices into `legal`, most
    /// probable first: every legal move exactly once, nothing else. Moves training never saw
    /// come last; ties (and the unseen moves among themselves) keep the order of `legal`.
    pub fn rank(&self, features: &[String], legal: &[String]) -> Vec<usize> {
        self.rank_with_probabilities(features, legal)
            .into_iter()
            .map(|(index, _)| index)
            .collect()
    }

    /// [`MoveModel::rank`] with each legal move's posterior probability, normalised over the
    /// legal moves: the scores' softmax. A move training never saw gets 0 (the classifier has
    /// no class for it) unless training saw none of them, when each gets `1 / legal.len()`:
    /// with nothing known, every move is as likely.
    pub fn rank_with_probabilities(
        &self,
        features: &[String],
        legal: &[String],
    ) -> Vec<(usize, f64)> {
        let scores: Vec<Option<f64>> = legal
            .iter()
            .map(|name| self.log_score(features, name))
            .collect();
        let mut order: Vec<usize> = (0..legal.len()).collect();
        // `None` (unseen) sorts below every score; the sort is stable.
        order.sort_by(|&x, &y| match (scores[x], scores[y]) {
            (Some(a), Some(b)) => b.total_cmp(&a),
            (Some(_), None) => std::cmp::Ordering::Less,
            (None, Some(_)) => std::cmp::Ordering::Greater,
            (None, None) => std::cmp::Ordering::Equal,
        });
        // Subtracting the highest score keeps the exponentials in range.
        let highest = order.first().and_then(|&index| scores[index]);
        let Some(highest) = highest else {
            let uniform = 1.0 / legal.len().max(1) as f64;
            return order.into_iter().map(|index| (index, uniform)).collect();
        };
        let weights: Vec<f64> = scores
            .iter()
            .map(|score| score.map_or(0.0, |score| (score - highest).exp()))
            .collect();
        let total: f64 = weights.iter().sum();
        order
            .into_iter()
            .map(|index| (index, weights[index] / total))
            .collect()
    }
}
