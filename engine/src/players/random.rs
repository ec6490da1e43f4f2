//! The seed's random player: a legal move drawn uniformly.

use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};

use super::Reflex;

#[derive(Clone, Debug)]
pub struct RandomPlayer {
    rng: SmallRng,
}

impl RandomPlayer {
    /// The same seed gives the same moves in the same states.
    pub fn new(seed: u64) -> Self {
        RandomPlayer {
            rng: SmallRng::seed_from_u64(seed),
        }
    }
}

impl Reflex for RandomPlayer {
    const NAME: &'static str = "random";

    fn pick(&mut self, count: usize) -> usize {
        self.rng.random_range(0..count)
    }
}
