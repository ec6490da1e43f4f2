//! The aesthetic score of a probed game (Browne & Maire 2010, eq. (6)): the weighted sum of the
//! probe's criteria plus a bias, `A_s = Σ_i A_i·w_i + w_C`, with the weights read from a data
//! file (`aesthetic-weights.toml` beside this module; see its comments for where they come from).
//! A criterion the games could not measure (no decided game for drama) adds nothing.

use std::collections::BTreeMap;
use std::path::Path;

use ludeme_engine::probe::ProbeReport;
/// The criteria the score weighs, for the front ends that list them.
pub use ludeme_engine::probe::criteria::{CRITERIA, Category, Criterion, criterion_named};
use serde::{Deserialize, Serialize};
use toml::Spanned;

/// The weights the project ships.
const DEFAULT_WEIGHTS: &str = include_str!("aesthetic-weights.toml");

/// A weights file as written: the names with where they are, for the messages.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawWeights {
    #[serde(default)]
    bias: f64,
    weights: BTreeMap<Spanned<String>, f64>,
}

/// The aesthetic weights: one per criterion named, and the bias.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct AestheticWeights {
    pub bias: f64,
    pub weights: BTreeMap<String, f64>,
}

impl AestheticWeights {
    /// Weights from the text of a TOML file; every name must be a criterion of the probe. A
    /// mistake is told with its line and column.
    pub fn from_toml(text: &str) -> Result<Self, String> {
        let raw: RawWeights = toml::from_str(text)
            .map_err(|error| placed(text, error.span().map(|span| span.start), error.message()))?;
        let mut weights = BTreeMap::new();
        for (name, weight) in raw.weights {
            if criterion_named(name.get_ref()).is_none() {
                return Err(placed(
                    text,
                    Some(name.span().start),
                    &format!("`{}` is not a criterion of the probe", name.get_ref()),
                ));
            }
            weights.insert(name.into_inner(), weight);
        }
        Ok(AestheticWeights {
            bias: raw.bias,
            weights,
        })
    }

    /// The weights file at `path` (`ludeme evolve --weights FILE`), read as the project's
    /// files are (a byte-order mark or UTF-16 decoded); the error names the file, and the line
    /// and column of a mistake in it.
    pub fn read_file(path: &Path) -> Result<Self, String> {
        let at = |message: String| format!("{}: {message}", path.display());
        let text = crate::source::read_text_file(path).map_err(at)?;
        Self::from_toml(&text).map_err(at)
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

/// `message` about `text`, preceded by the line and column of the byte offset `at` when the
/// mistake has a place (toml does not give one for every error).
fn placed(text: &str, at: Option<usize>, message: &str) -> String {
    match at {
        Some(offset) => {
            let (line, column) = crate::game_report::line_and_column(text, offset);
            format!("line {line}, column {column}: {message}")
        }
        None => message.to_owned(),
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

    /// A mistake in a weights file is told with its line and column; the file is read as the
    /// project's files are, a byte-order mark and all.
    #[test]
    fn a_weights_file_is_read_with_its_mistakes_placed() {
        assert_eq!(
            AestheticWeights::from_toml("bias = 0.5\n[weights]\ndrama = 1.0\n  fun = 1.0\n"),
            Err("line 4, column 3: `fun` is not a criterion of the probe".to_owned())
        );
        let broken = AestheticWeights::from_toml("[weights]\ndrama = = 1.0\n").unwrap_err();
        assert!(broken.starts_with("line 2, column "), "{broken}");
        let unknown_key = AestheticWeights::from_toml("[weights]\ndrama = 1.0\n[extra]\n");
        assert!(
            unknown_key
                .as_ref()
                .is_err_and(|message| message.starts_with("line 3, column 2: ")),
            "{unknown_key:?}"
        );

        let folder = std::env::temp_dir().join(format!("ludeme-weights-{}", std::process::id()));
        std::fs::create_dir_all(&folder).unwrap();
        let path = folder.join("weights.toml");
        std::fs::write(&path, "\u{feff}bias = 0.25\n[weights]\ndrama = 2.0\n").unwrap();
        let read = AestheticWeights::read_file(&path).expect("read");
        assert_eq!(read.bias, 0.25);
        assert_eq!(read.weights.get("drama"), Some(&2.0));
        let missing = folder.join("missing.toml");
        let error = AestheticWeights::read_file(&missing).unwrap_err();
        assert!(
            error.starts_with(&format!("{}: cannot read it: ", missing.display())),
            "{error}"
        );
        std::fs::remove_dir_all(&folder).unwrap();
    }

    /// A mistake toml gives no place for is told without a made-up position.
    #[test]
    fn a_mistake_without_a_place_is_told_without_one() {
        assert_eq!(placed("a\nbc", None, "wrong"), "wrong");
        assert_eq!(placed("a\nbc", Some(3), "wrong"), "line 2, column 2: wrong");
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
