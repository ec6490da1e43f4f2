//! The seed's legal player: the first legal move, without thought.

use super::Reflex;

#[derive(Clone, Copy, Debug, Default)]
pub struct LegalPlayer;

impl Reflex for LegalPlayer {
    const NAME: &'static str = "legal";

    fn pick(&mut self, _count: usize) -> usize {
        0
    }
}
