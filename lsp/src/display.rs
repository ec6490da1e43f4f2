//! Requests that show: selection ranges and inlay hints. Each answers on a [`Snapshot`] from
//! `ludeme_analysis::ide`, and only converts.

use ludeme_analysis::{TextRange, ide};
use tower_lsp_server::ls_types::*;

use crate::session::Snapshot;

pub fn selection_ranges(snapshot: &Snapshot, positions: &[Position]) -> Vec<SelectionRange> {
    let offsets: Vec<usize> = positions
        .iter()
        .map(|position| snapshot.document.offset(*position))
        .collect();
    ide::selection_ranges(snapshot.db(), snapshot.file, &offsets)
        .into_iter()
        .zip(positions)
        .map(|(chain, position)| {
            // Outermost first, so that each range is the parent of the next.
            chain
                .into_iter()
                .rev()
                .fold(None, |parent, range| {
                    Some(SelectionRange {
                        range: snapshot.document.range(range),
                        parent: parent.map(Box::new),
                    })
                })
                // The protocol wants one answer per position: an empty range where there is
                // no syntax (an empty file).
                .unwrap_or(SelectionRange {
                    range: Range::new(*position, *position),
                    parent: None,
                })
        })
        .collect()
}

pub fn inlay_hints(snapshot: &Snapshot, range: Range, english: bool) -> Vec<InlayHint> {
    let document = &snapshot.document;
    let range = TextRange::new(document.offset(range.start), document.offset(range.end));
    let options = ide::InlayOptions { english };
    ide::inlay_hints(snapshot.db(), snapshot.file, range, options)
        .into_iter()
        .map(|hint| InlayHint {
            position: document.position(hint.offset),
            label: InlayHintLabel::String(hint.label),
            kind: None,
            text_edits: None,
            tooltip: hint.tooltip.map(InlayHintTooltip::String),
            padding_left: Some(!hint.attached),
            padding_right: Some(true),
            data: None,
        })
        .collect()
}
