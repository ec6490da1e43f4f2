//! The classifier: multivariate (Bernoulli) naive Bayes with Laplace smoothing over the
//! features chi-square selection keeps, ranking only the legal moves of a state.

use std::collections::{BTreeMap, HashMap};

use serde::{Deserialize, Serialize};

use super::chi_square::{chi_square_scores, select_features};

/// A trained model of one player: per move seen in training, its prior and the probability of
/// each selected feature given that move.
///
/// It is kept (and saved, see [`StoredMoveModel`]) as the counts training made, so that a model
/// read back from a file computes exactly the probabilities it had when trained.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(into = "StoredMoveModel", try_from = "StoredMoveModel")]
pub struct MoveModel {
    /// The selected features, most telling first, with their index in the model.
    features: HashMap<String, usize>,
    feature_names: Vec<String>,
    /// The moves seen in training (the label vocabulary), with their index in the model.
    moves: HashMap<String, usize>,
    move_names: Vec<String>,
    /// Per move, the training rows labelled with it.
    examples_per_move: Vec<usize>,
    /// Per selected feature and move, the rows of that move holding the feature.
    present: Vec<Vec<usize>>,
    /// Per move, `ln P(move)`: its share of the training rows.
    log_prior: Vec<f64>,
    /// Per move, `Σ_j ln(1 − θ_j)` over the selected features: the score of a row holding none.
    log_all_absent: Vec<f64>,
    /// Per move and feature, `ln θ_j − ln(1 − θ_j)`: what holding feature `j` adds.
    log_odds: Vec<Vec<f64>>,
    /// The chi-square statistic of each selected feature, in `feature_names` order.
    chi_square: Vec<f64>,
}

/// A [`MoveModel`] as a file holds it: the counts of training, from which the probabilities
/// are computed again when it is read.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StoredMoveModel {
    /// The moves training saw, each with the rows labelled with it.
    pub moves: Vec<StoredMove>,
    /// The selected features, most telling first.
    pub features: Vec<StoredFeature>,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StoredMove {
    pub name: String,
    pub examples: usize,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StoredFeature {
    pub name: String,
    pub chi_square: f64,
    /// Per move (in `moves` order), the rows of that move holding the feature.
    pub present: Vec<usize>,
}

impl From<MoveModel> for StoredMoveModel {
    fn from(model: MoveModel) -> Self {
        StoredMoveModel {
            moves: model
                .move_names
                .into_iter()
                .zip(model.examples_per_move)
                .map(|(name, examples)| StoredMove { name, examples })
                .collect(),
            features: model
                .feature_names
                .into_iter()
                .zip(model.chi_square)
                .zip(model.present)
                .map(|((name, chi_square), present)| StoredFeature {
                    name,
                    chi_square,
                    present,
                })
                .collect(),
        }
    }
}

impl TryFrom<StoredMoveModel> for MoveModel {
    type Error = String;

    /// Refuses counts no training could have made: no move, a name twice, a feature counted
    /// in more rows of a move than the move has.
    fn try_from(stored: StoredMoveModel) -> Result<Self, String> {
        if stored.moves.is_empty() {
            return Err("the model has no move".to_owned());
        }
        let mut seen = HashMap::new();
        for (index, entry) in stored.moves.iter().enumerate() {
            if entry.examples == 0 {
                return Err(format!("move `{}` has no training row", entry.name));
            }
            if seen.insert(entry.name.as_str(), index).is_some() {
                return Err(format!("move `{}` is listed twice", entry.name));
            }
        }
        let mut seen_features = HashMap::new();
        for feature in &stored.features {
            if seen_features.insert(feature.name.as_str(), ()).is_some() {
                return Err(format!("feature `{}` is listed twice", feature.name));
            }
            if feature.present.len() != stored.moves.len() {
                return Err(format!(
                    "feature `{}` has {} counts for {} moves",
                    feature.name,
                    feature.present.len(),
                    stored.moves.len()
                ));
            }
            if let Some((entry, &count)) = stored
                .moves
                .iter()
                .zip(&feature.present)
                .find(|(entry, count)| **count > entry.examples)
            {
                return Err(format!(
                    "feature `{}` is counted in {count} rows of move `{}`, which has {}",
                    feature.name, entry.name, entry.examples
                ));
            }
            if !(feature.chi_square.is_finite() && feature.chi_square >= 0.0) {
                return Err(format!(
                    "feature `{}` has a chi-square statistic of {}",
                    feature.name, feature.chi_square
                ));
            }
        }
        let (move_names, examples_per_move) = stored
            .moves
            .into_iter()
            .map(|entry| (entry.name, entry.examples))
            .unzip();
        let mut feature_names = Vec::with_capacity(stored.features.len());
        let mut chi_square = Vec::with_capacity(stored.features.len());
        let mut present = Vec::with_capacity(stored.features.len());
        for feature in stored.features {
            feature_names.push(feature.name);
            chi_square.push(feature.chi_square);
            present.push(feature.present);
        }
        Ok(MoveModel::from_counts(
            move_names,
            examples_per_move,
            feature_names,
            chi_square,
            present,
        ))
    }
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
        MoveModel::from_counts(
            move_names.into_keys().map(str::to_owned).collect(),
            examples_per_move,
            kept.iter().map(|&j| vocabulary[j].to_owned()).collect(),
            kept.iter().map(|&j| scores[j]).collect(),
            kept.iter()
                .map(|&j| std::mem::take(&mut present[j]))
                .collect(),
        )
    }

    /// The model of the counts training made (parallel lists; see [`MoveModel::train`] for
    /// the probabilities).
    fn from_counts(
        move_names: Vec<String>,
        examples_per_move: Vec<usize>,
        feature_names: Vec<String>,
        chi_square: Vec<f64>,
        present: Vec<Vec<usize>>,
    ) -> MoveModel {
        let total: usize = examples_per_move.iter().sum();
        let mut log_prior = Vec::with_capacity(move_names.len());
        let mut log_all_absent = Vec::with_capacity(move_names.len());
        let mut log_odds = Vec::with_capacity(move_names.len());
        for (c, &n_c) in examples_per_move.iter().enumerate() {
            log_prior.push((n_c as f64 / total as f64).ln());
            let mut absent = 0.0;
            let mut odds = Vec::with_capacity(feature_names.len());
            for per_move in &present {
                let theta = (per_move[c] as f64 + 1.0) / (n_c as f64 + 2.0);
                absent += (1.0 - theta).ln();
                odds.push(theta.ln() - (1.0 - theta).ln());
            }
            log_all_absent.push(absent);
            log_odds.push(odds);
        }
        let index = |names: &[String]| -> HashMap<String, usize> {
            names
                .iter()
                .enumerate()
                .map(|(i, name)| (name.clone(), i))
                .collect()
        };
        MoveModel {
            features: index(&feature_names),
            moves: index(&move_names),
            feature_names,
            move_names,
            examples_per_move,
            present,
            log_prior,
            log_all_absent,
            log_odds,
            chi_square,
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
