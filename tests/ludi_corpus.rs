//! Conformance of `corpus/ludi/` (issue 5, item 6) through the binary: `ludeme check` reports no
//! error in any game of the corpus (but those of `support::LUDI_DELIBERATELY_DAMAGED`). The rest
//! of the corpus's conformance (the count, the headers, play to an end) is
//! `analysis/tests/ludi_corpus.rs`.

mod support;

#[test]
fn no_game_has_an_error_diagnostic() {
    let root = support::project_root();
    let diagnostics = support::check_json(&root.join("corpus/ludi"));
    let errors: Vec<_> = diagnostics
        .iter()
        .filter(|d| d["severity"] == "error")
        .filter(|d| {
            let file = d["file"].as_str().unwrap_or("");
            !support::LUDI_DELIBERATELY_DAMAGED
                .iter()
                .any(|name| file.ends_with(name))
        })
        .collect();
    assert!(errors.is_empty(), "{errors:#?}");
}
