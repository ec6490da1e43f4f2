//! Evaluation: the top-N curve of a model on held-out test matches, beside what a ranking at
//! random would score, and the whole experiment (simulate, train, test) in one call.

use super::{Decision, FeatureSet, MoveModel, Observe, SimulationSettings, simulate};
use crate::cpu_time::CpuInstant;

/// The share of test decisions whose real move the model ranked within the first `N`.
#[derive(Clone, Debug, PartialEq)]
pub struct TopNCurve {
    /// Test decisions (states where the player had two or more legal moves).
    pub decisions: usize,
    /// `within[n - 1]`: the share ranked within the first `n`, for `n` up to the most legal
    /// moves any test state had (the last is 1).
    pub within: Vec<f64>,
    /// The same shares for a ranking drawn uniformly at random: a decision among `L` legal
    /// moves lands within the first `n` with probability `min(n, L) / L`.
    pub chance: Vec<f64>,
    /// The mean number of legal moves of the test decisions.
    pub mean_legal_moves: f64,
}

impl TopNCurve {
    /// The share predicted at the first rank (0 without test decisions).
    pub fn top1(&self) -> f64 {
        self.within.first().copied().unwrap_or(0.0)
    }

    /// The smallest `n` within which every test move was ranked (the seed's "100 % within
    /// the first 17" for Mummy Maze).
    pub fn all_within(&self) -> usize {
        self.moves_for_confidence(1.0)
    }

    /// The smallest `n` within which at least the share `confidence` of the test moves was
    /// ranked: how many of the player's moves a search must keep at each of its levels to
    /// consider its real move with that probability (the seed's confidence contours).
    pub fn moves_for_confidence(&self, confidence: f64) -> usize {
        moves_reaching(&self.within, confidence)
    }
}

/// How many of the first items of a rising cumulative share (`within[n - 1]`: the share held
/// by the first `n`) it takes to reach `confidence`; all of them when it is never reached.
pub(super) fn moves_reaching(within: &[f64], confidence: f64) -> usize {
    // A share is a ratio of counts or a sum of probabilities; the tolerance keeps 0.9 from
    // missing 9/10.
    within
        .iter()
        .position(|&share| share >= confidence - 1e-9)
        .map_or(within.len(), |index| index + 1)
}

/// The nodes a search expands to reach depth `depth` (levels of the modelled player) when it
/// keeps `moves` of the player's moves at each: `moves + moves² + … + moves^depth`, the
/// quantity of the seed's confidence contours (Figs. 3 and 4).
pub fn nodes_to_depth(moves: f64, depth: u32) -> f64 {
    (1..=depth).map(|level| moves.powi(level as i32)).sum()
}

/// The top-N curve of `model` on `tests`, with each state's features taken as `features` says.
pub fn top_n_curve(model: &MoveModel, tests: &[Decision], features: FeatureSet) -> TopNCurve {
    let widest = tests.iter().map(|d| d.legal.len()).max().unwrap_or(0);
    let mut ranked_at = vec![0usize; widest];
    let mut chance = vec![0.0; widest];
    for decision in tests {
        let row = features.features(&decision.atoms, &decision.legal);
        let order = model.rank(&row, &decision.legal);
        // The decision's move is one of its legal moves by construction; a name that repeats
        // counts at its first place.
        if let Some(place) = order
            .iter()
            .position(|&index| decision.legal[index] == decision.chosen)
        {
            ranked_at[place] += 1;
        }
        let legal = decision.legal.len() as f64;
        for (n, share) in chance.iter_mut().enumerate() {
            *share += ((n + 1) as f64).min(legal) / legal;
        }
    }
    let count = tests.len().max(1) as f64;
    let mut within = Vec::with_capacity(widest);
    let mut so_far = 0;
    for at in ranked_at {
        so_far += at;
        within.push(so_far as f64 / count);
    }
    TopNCurve {
        decisions: tests.len(),
        within,
        chance: chance.into_iter().map(|share| share / count).collect(),
        mean_legal_moves: tests.iter().map(|d| d.legal.len() as f64).sum::<f64>() / count,
    }
}

/// An experiment: simulation settings, how many training and test matches, which features and
/// how many of them to keep.
#[derive(Clone, Debug)]
pub struct ExperimentSettings {
    pub simulation: SimulationSettings,
    pub training_matches: u64,
    pub test_matches: u64,
    /// The feature variants to compare, each trained and tested on the same matches.
    pub feature_sets: Vec<FeatureSet>,
    /// Features kept by chi-square selection (`None`: all).
    pub select: Option<usize>,
}

/// What an experiment measured.
#[derive(Clone, Debug)]
pub struct Experiment {
    pub training_decisions: usize,
    /// Per feature variant, in the settings' order: the variant, the features and moves its
    /// training saw, and its curve.
    pub variants: Vec<Variant>,
    /// CPU seconds simulating the training and test matches.
    pub simulation_seconds: f64,
    /// CPU seconds training and evaluating every variant.
    pub modelling_seconds: f64,
}

#[derive(Clone, Debug)]
pub struct Variant {
    pub features: FeatureSet,
    /// The feature vocabulary training saw, and how many chi-square selection kept.
    pub vocabulary: usize,
    pub selected: usize,
    pub moves_seen: usize,
    pub curve: TopNCurve,
}

/// Simulates `training_matches` then `test_matches` further matches (seeds disjoint from the
/// training ones), trains a model per feature variant and draws its top-N curve.
pub fn experiment<G: Observe>(
    game: &G,
    settings: &ExperimentSettings,
) -> Result<Experiment, String> {
    let started = CpuInstant::now();
    let training = simulate(game, &settings.simulation, 0..settings.training_matches)?;
    let end = settings.training_matches + settings.test_matches;
    let tests = simulate(game, &settings.simulation, settings.training_matches..end)?;
    let simulation_seconds = started.elapsed().as_secs_f64();
    let modelling = CpuInstant::now();
    let variants = settings
        .feature_sets
        .iter()
        .map(|&features| {
            let rows: Vec<(Vec<String>, String)> = training
                .iter()
                .map(|d| (features.features(&d.atoms, &d.legal), d.chosen.clone()))
                .collect();
            let vocabulary = {
                let mut all: Vec<&String> = rows.iter().flat_map(|(row, _)| row).collect();
                all.sort_unstable();
                all.dedup();
                all.len()
            };
            let model = MoveModel::train(&rows, settings.select);
            Variant {
                features,
                vocabulary,
                selected: model.selected_features().count(),
                moves_seen: model.move_vocabulary(),
                curve: top_n_curve(&model, &tests, features),
            }
        })
        .collect();
    Ok(Experiment {
        training_decisions: training.len(),
        variants,
        simulation_seconds,
        modelling_seconds: modelling.elapsed().as_secs_f64(),
    })
}
