//! The entry point of the fuzz targets and property tests: every analysis on arbitrary input.
//! As later layers add queries (lowering, checks, English), they are added here, so the fuzzers
//! and the property tests cover them without change.

use std::sync::Arc;

use crate::{RootDatabase, SourceFile, Syntax, decode_source, document_symbols, file_diagnostics};

/// Decodes `bytes` and, if they are text, runs every analysis of `syntax` on them, checking the
/// invariants front ends rely on (diagnostic ranges inside the text, on character boundaries).
/// Panics when an analysis panics or an invariant fails: that is what a fuzzer looks for.
pub fn analyse_bytes(syntax: Syntax, bytes: &[u8]) {
    if let Ok(text) = decode_source(bytes) {
        analyse_text(syntax, text);
    }
}

/// As [`analyse_bytes`], for text.
pub fn analyse_text(syntax: Syntax, text: &str) {
    let db = RootDatabase::default();
    let file = SourceFile::new(&db, "fuzz".into(), syntax, Arc::from(text), None);
    for diagnostic in file_diagnostics(&db, file) {
        let range = diagnostic.range;
        assert!(
            range.start <= range.end && range.end <= text.len(),
            "{diagnostic:?}"
        );
        assert!(
            text.is_char_boundary(range.start) && text.is_char_boundary(range.end),
            "{diagnostic:?}"
        );
    }
    for symbol in document_symbols(&db, file) {
        assert!(symbol.range.end <= text.len(), "{symbol:?}");
    }
    for range in crate::ide::folding_ranges(&db, file) {
        assert!(range.end <= text.len(), "{range:?}");
    }
    for token in crate::ide::semantic_tokens(&db, file) {
        assert!(token.range.end <= text.len(), "{token:?}");
    }
    if matches!(syntax, Syntax::GdlKif | Syntax::GdlInfix) {
        for section in &crate::gdl::gdl_explanation(&db, file).sections {
            for item in &section.items {
                assert!(
                    item.ranges.iter().all(|range| range.end <= text.len()),
                    "{item:?}"
                );
            }
        }
        // Every offset a cursor can be at: hovers and navigation answer without panicking.
        for offset in (0..=text.len()).filter(|&offset| text.is_char_boundary(offset)) {
            let _ = crate::ide::hover(&db, file, offset);
            let _ = crate::ide::references(&db, file, offset);
        }
        let _ = crate::gdl::format_gdl(&db, file, Syntax::GdlKif);
        let _ = crate::gdl::format_gdl(&db, file, Syntax::GdlInfix);
    }
    if syntax == Syntax::Egg {
        for sentence in crate::egg::egg_explanation(&db, file)
            .sections
            .iter()
            .flat_map(|section| &section.sentences)
        {
            let inside = |o: &crate::egg::model::Origin| o.range.end <= text.len();
            assert!(sentence.origins.iter().all(inside), "{sentence:?}");
        }
    }
}
