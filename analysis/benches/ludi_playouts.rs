//! Random playouts and a self-play probe on the Ludi board engine, one thread: the criterion
//! counterpart of `ludeme bench FILE.ludi` and `ludeme probe`. Games come from the project's own
//! `corpus/ludi/`.

use std::path::Path;
use std::sync::Arc;

use criterion::{Criterion, criterion_group, criterion_main};
use ludeme_analysis::ludi::engine::ludi_engine_for;
use ludeme_analysis::{RootDatabase, SourceFile, Syntax};
use ludeme_engine::Game;
use ludeme_engine::ludi::LudiGame;
use ludeme_engine::ludi::advisors::Advisors;
use ludeme_engine::playout::random_playout;
use ludeme_engine::probe::{ProbeSettings, probe};
use rand::SeedableRng;
use rand::rngs::SmallRng;

fn load(name: &str) -> LudiGame {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("../corpus/ludi/{name}.ludi"));
    let text = std::fs::read_to_string(&path).expect("a corpus game");
    let db = RootDatabase::default();
    let file = SourceFile::new(&db, path, Syntax::Ludi, Arc::from(text), None);
    ludi_engine_for(&db, file).expect("a playable game")
}

fn playouts(c: &mut Criterion) {
    let mut group = c.benchmark_group("ludi random playout");
    for name in ["tic-tac-toe", "yavalath", "hex", "atari-go"] {
        let game = load(name);
        let start = game.initial_state();
        let mut rng = SmallRng::seed_from_u64(7);
        group.bench_function(name, |b| {
            b.iter(|| random_playout(&game, &start, &mut rng, 10_000))
        });
    }
    group.finish();
}

fn probes(c: &mut Criterion) {
    let game = load("yavalath");
    let settings = ProbeSettings {
        games: 10,
        ..ProbeSettings::default()
    };
    let advisors = Advisors::for_game(&game, 0, settings.nodes_per_move);
    let mut group = c.benchmark_group("ludi probe");
    group.sample_size(10);
    group.bench_function("yavalath, 10 games", |b| {
        b.iter(|| probe(&game, &advisors, &settings))
    });
    group.finish();
}

criterion_group!(benches, playouts, probes);
criterion_main!(benches);
