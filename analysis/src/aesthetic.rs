//! The aesthetic score of a probed game (Browne & Maire 2010, eq. (6)): the weighted sum of the
//! probe's criteria plus a bias, `A_s = Σ_i A_i·w_i + w_C`, with the weights read from a data
//! file (`aesthetic-weights.toml` beside this module; see its comments for where they come from).
//! A criterion the games could not measure (no decided game for drama) adds nothing.

use std::collections::BTreeMap;

use ludeme_engine::probe::ProbeReport;
/// The criteria the score weighs, for the front ends that list them.
pub use ludeme_engine::probe::criteria::{CRITERIA, Category, Criterion, criterion_named};
use serde::{Deserialize, Serialize};

/// The weights the project ships.
const DEFAULT_WEIGHTS: &str = include_str!("aesthetic-weights.toml");

/// The aesthetic weights: one per criterion named, and the bias.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct AestheticWeights {
    #[serde(default)]
    pub bias: f64,
    pub weights: BTreeMap<String, f64>,
}

impl AestheticWeights {
    /// Weights from the text of a TOML file; every name must be a criterion of the probe.
    pub fn from_toml(text: &str) -> Result<Self, String> {
        let weights: AestheticWeights = toml::from_str(text).map_err(|error| error.to_string())?;
        if let Some(unknown) = weights
            .weights
            .keys()
            .find(|name| criterion_named(name).is_none())
        {
            return Err(format!("`{unknown}` is not a criterion of the probe"));
        }
        Ok(weights)
    }

    /// The score of the games `report` measured.
    pub fn score(&self, report: &ProbeReport) -> f64 {
        report
            .criteria
            .iter()
            .filter_map(|criterion| {
                let weight = self.weights.get(criterion.name)?;
                Some(weight * criterion.value?)
            })
            .sum::<f64>()
            + self.bias
    }
}

impl Default for AestheticWeights {
    fn default() -> Self {
        // The shipped file is checked by a test: reading it cannot fail in a build that passed.
        Self::from_toml(DEFAULT_WEIGHTS).unwrap_or(AestheticWeights {
            bias: 0.0,
            weights: BTreeMap::new(),
        })
    }
}

/// [`AestheticWeights::score`] with the shipped weights.
pub fn aesthetic_score(report: &ProbeReport) -> f64 {
    AestheticWeights::default().score(report)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ludeme_engine::probe::criteria::CriterionValue;

    #[test]
    fn the_shipped_weights_read_and_name_only_criteria() {
        let weights = AestheticWeights::from_toml(DEFAULT_WEIGHTS).expect("the shipped weights");
        assert!(weights.weights.len() >= 6);
        assert_eq!(AestheticWeights::default(), weights);
        assert!(AestheticWeights::from_toml("[weights]\nfun = 1.0").is_err());
    }

    #[test]
    fn the_score_is_the_weighted_sum_plus_the_bias() {
        let weights =
            AestheticWeights::from_toml("bias = 0.5\n[weights]\ncompletion = 2.0\ndrama = -1.0\n")
                .expect("weights");
        let report = ProbeReport {
            criteria: vec![
                CriterionValue {
                    name: "completion",
                    value: Some(0.75),
                },
                // Not measured: adds nothing.
                CriterionValue {
                    name: "drama",
                    value: None,
                },
                // Not weighted: adds nothing.
                CriterionValue {
                    name: "length",
                    value: Some(40.0),
                },
            ],
            ..empty_report()
        };
        // 2 · 0.75 + 0.5.
        assert!((weights.score(&report) - 2.0).abs() < 1e-12);
    }

    /// The report of a probe that played no game.
    fn empty_report() -> ProbeReport {
        use ludeme_engine::ludi::{BoardSpec, Description, LudiGame, Shape, Tiling};
        let board = BoardSpec {
            tiling: Tiling::Square,
            shape: Shape::Square,
            size: vec![3, 3],
            diagonal_adjacency: false,
        };
        let game = LudiGame::new(Description::placement_game(
            "Empty",
            &["White", "Black"],
            board,
            Vec::new(),
        ))
        .expect("a playable board");
        let settings = ludeme_engine::probe::ProbeSettings {
            games: 0,
            ..Default::default()
        };
        ludeme_engine::probe::probe(&game, &ludeme_engine::probe::NoAdvice, &settings)
    }
}
