//! Helpers that need neither the `ludeme` binary nor the engine: where the games are, and the
//! exact odds of random tic-tac-toe. Shared by the end-to-end tests here (`support/mod.rs`
//! includes this file) and by the analysis crate's integration tests
//! (`analysis/tests/support/mod.rs` includes it with `#[path]`).

use std::path::{Path, PathBuf};

/// The project root: the parent of the crate whose tests run (`cli/` or `analysis/`; both are
/// one level below the root).
pub fn project_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the crate's folder has a parent")
        .to_path_buf()
}

/// `../shared/corpus` beside the project root, the external corpus of real games. Tests over it
/// say loudly when it is absent (a clone made elsewhere) and skip; CI always has it.
pub fn shared_corpus() -> Option<PathBuf> {
    let path = project_root().join("../shared/corpus");
    if path.is_dir() {
        Some(path)
    } else {
        eprintln!(
            "\n*** SKIPPED: {} is absent; the tests over the external GDL corpus did not run ***\n",
            path.display()
        );
        None
    }
}

/// Whether the full suites run: the robustness tests at the issue's sizes and margins, every
/// shared-corpus GDL game on the grounded reasoner, and the reasoners' differential tests on the
/// games grounded on demand. They take minutes even optimised and far longer unoptimised, so the
/// default `cargo test` leaves them out; CI sets `LUDEME_FULL_SUITES=1` and optimises its test
/// build (README, `.ci/run`).
pub fn full_suites_enabled() -> bool {
    std::env::var_os("LUDEME_FULL_SUITES").is_some_and(|value| value == "1")
}

/// [`full_suites_enabled`], saying loudly when `what` is skipped for want of the flag.
pub fn full_suites(what: &str) -> bool {
    let enabled = full_suites_enabled();
    if !enabled {
        eprintln!(
            "\n*** SKIPPED: {what} is a full suite: LUDEME_FULL_SUITES=1 runs it, in an optimised \
             build (`--release`, or CI's optimised dev profile) ***\n"
        );
    }
    enabled
}

/// All files under `folder` with one of `extensions`, sorted.
pub fn files_with_extensions(folder: &Path, extensions: &[&str]) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut pending = vec![folder.to_path_buf()];
    while let Some(dir) = pending.pop() {
        for entry in std::fs::read_dir(&dir).expect("readable folder") {
            let path = entry.expect("readable entry").path();
            if path.is_dir() {
                pending.push(path);
            } else if path
                .extension()
                .and_then(|e| e.to_str())
                .is_some_and(|e| extensions.contains(&e))
            {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

/// Files of `corpus/ludi/` that are broken on purpose, to show a diagnostic, left out of the
/// corpus's conformance tests (`ludi_corpus.rs` here and in `analysis/tests/`). There are none
/// at present: the seed's variants that cannot be won (`tic-tac-toe-2x2.ludi`) are valid Ludi,
/// warned about but playable, and stay under test.
pub const LUDI_DELIBERATELY_DAMAGED: &[&str] = &[];

/// Uniformly random tic-tac-toe, computed exactly by enumerating every game independently of
/// any engine (each move chosen uniformly among the free cells): X wins 737/1260 ≈ 58.49 %,
/// O wins 121/420 ≈ 28.81 %, draws 8/63 ≈ 12.70 %, and a game lasts 3203/420 ≈ 7.626 plies.
pub mod random_tic_tac_toe {
    pub const X_WINS: f64 = 737.0 / 1260.0;
    pub const O_WINS: f64 = 121.0 / 420.0;
    pub const DRAWS: f64 = 8.0 / 63.0;
    pub const PLIES: f64 = 3203.0 / 420.0;
    /// The variance of a game's length, by the same enumeration (games last 5 to 9 plies):
    /// what the standard error of an average over many games follows from.
    pub const PLIES_VARIANCE: f64 = 297_491.0 / 176_400.0;

    /// Four standard errors of an average over `games` independent games, of a share whose
    /// exact value is `share` (a binomial proportion), and of the length.
    pub fn four_standard_errors(games: u64, share: f64) -> f64 {
        4.0 * (share * (1.0 - share) / games as f64).sqrt()
    }

    pub fn four_standard_errors_of_plies(games: u64) -> f64 {
        4.0 * (PLIES_VARIANCE / games as f64).sqrt()
    }

    /// The issues' acceptance bound: every share within half a percentage point, and the
    /// average length within half a percent.
    pub const ISSUE_BOUND: f64 = 0.005;

    /// What random playouts of tic-tac-toe gave, as plain figures (the first role moves first).
    #[derive(Clone, Copy, Debug)]
    pub struct Observed {
        /// How many playouts completed.
        pub games: u64,
        /// The shares of games the first role won, the second role won, and drawn.
        pub x_wins: f64,
        pub o_wins: f64,
        pub draws: f64,
        /// The average length of a game, in plies.
        pub plies: f64,
    }

    /// Asserts that `observed` figures of random tic-tac-toe show the exact odds: each share
    /// within `share_tolerance(expected share)`, the average length within `plies_tolerance`
    /// plies. Prints the figures either way.
    pub fn assert_exact_odds(
        observed: &Observed,
        share_tolerance: impl Fn(f64) -> f64,
        plies_tolerance: f64,
    ) {
        let plies = observed.plies;
        eprintln!(
            "{} random tic-tac-toe playouts: X {:.4}, O {:.4}, draw {:.4}, {plies:.4} plies",
            observed.games, observed.x_wins, observed.o_wins, observed.draws,
        );
        for (observed, expected, what) in [
            (observed.x_wins, X_WINS, "X wins"),
            (observed.o_wins, O_WINS, "O wins"),
            (observed.draws, DRAWS, "draws"),
        ] {
            let tolerance = share_tolerance(expected);
            assert!(
                (observed - expected).abs() <= tolerance,
                "{what}: {observed:.4} vs {expected:.4} ± {tolerance:.4}"
            );
        }
        assert!(
            (plies - PLIES).abs() <= plies_tolerance,
            "plies: {plies:.4} vs {PLIES:.4} ± {plies_tolerance:.4}"
        );
    }
}
