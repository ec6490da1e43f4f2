//! Random playouts per game on the GDL reasoner (grounded when the game grounds), one thread:
//! the criterion counterpart of `ludeme bench`. Games come from the shared corpus beside the
//! project's root; the bench says so and skips a game when the corpus is absent.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use criterion::{Criterion, criterion_group, criterion_main};
use ludeme_analysis::gdl::engine::reasoner_for;
use ludeme_analysis::{RootDatabase, SourceFile, Syntax, decode_source};
use ludeme_engine::Game;
use ludeme_engine::gdl::{Budget, Reasoner};
use ludeme_engine::playout::random_playout;
use rand::SeedableRng;
use rand::rngs::SmallRng;

const GAMES: [&str; 5] = [
    "ticTacToe",
    "connectFour",
    "breakthrough",
    "reversi",
    "speedChess",
];

fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus/gdl/ggp-repository")
}

fn load(path: &Path) -> Option<Reasoner> {
    let bytes = std::fs::read(path).ok()?;
    let text = decode_source(&bytes).ok()?;
    let syntax = Syntax::detect(path, text)?;
    let db = RootDatabase::default();
    let file = SourceFile::new(&db, path.to_path_buf(), syntax, Arc::from(text), None);
    reasoner_for(&db, file, Budget::default()).ok()
}

fn playouts(c: &mut Criterion) {
    let mut group = c.benchmark_group("random playout");
    for name in GAMES {
        let path = corpus().join(format!("{name}.kif"));
        let Some(game) = load(&path) else {
            eprintln!(
                "*** SKIPPED {name}: {} is absent or does not load ***",
                path.display()
            );
            continue;
        };
        let start = game.initial_state();
        let mut rng = SmallRng::seed_from_u64(7);
        group.bench_function(format!("{name} ({})", game.engine_name()), |b| {
            b.iter(|| random_playout(&game, &start, &mut rng, 10_000))
        });
    }
    group.finish();
}

criterion_group!(benches, playouts);
criterion_main!(benches);
