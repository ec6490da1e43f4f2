//! Every minimised crash the fuzzers found (`fuzz/regressions/<target>-<name>`) runs through its
//! target's entry point here, on every `cargo test`: a fixed crash stays fixed without a fuzzer.

use std::path::Path;

#[test]
fn every_fuzz_regression_input_runs_cleanly() {
    let folder = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz/regressions");
    let Ok(entries) = std::fs::read_dir(&folder) else {
        return;
    };
    let mut ran = 0;
    for entry in entries {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let bytes = std::fs::read(&path).unwrap();
        let target = name.split('-').next().unwrap_or_default();
        let run: fn(&[u8]) = match target {
            "parse" => ludeme_analysis::fuzzing::parse_input,
            "format" => ludeme_analysis::fuzzing::format_input,
            "ide" => ludeme_analysis::fuzzing::ide_input,
            "distance" => ludeme_analysis::fuzzing::distance_input,
            "check" => ludeme_analysis::fuzzing::check_input,
            "engine" => ludeme_analysis::fuzzing::engine_input,
            _ => continue,
        };
        let outcome = std::panic::catch_unwind(|| run(&bytes));
        assert!(outcome.is_ok(), "fuzz/regressions/{name} still crashes");
        ran += 1;
    }
    assert!(ran > 0 || folder.read_dir().is_err());
}
