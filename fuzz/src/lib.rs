//! Structure-aware generators for the fuzz targets: arbitrary GDL games ([`gdl_game`]) and
//! hostile sizes, deep nesting and huge fact sets ([`deep`]), built from the fuzzer's bytes with
//! the `arbitrary` crate. The stages they feed live in `ludeme_analysis::fuzzing`.

pub mod deep;
pub mod gdl_game;
