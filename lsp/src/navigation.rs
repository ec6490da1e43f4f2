//! Requests that move between places: definitions (across files), references and rename.
//! Each answers on a [`Snapshot`] from `ludeme_analysis::ide`, and only converts.

use std::collections::HashMap;

use ludeme_analysis::{SourceFile, TextRange, ide};
use tower_lsp_server::ls_types::*;

use crate::document::{Document, PositionEncoding};
use crate::session::Snapshot;

/// Definitions, in this document or (EGGG) in the file of a base game.
pub fn goto_definition(
    snapshot: &Snapshot,
    uri: &Uri,
    position: Position,
    encoding: PositionEncoding,
) -> Vec<Location> {
    let offset = snapshot.document.offset(position);
    ide::goto_definition(snapshot.db(), snapshot.file, offset)
        .into_iter()
        .filter_map(|target| location(snapshot, uri, target.file, target.range, encoding))
        .collect()
}

/// The protocol location of `range` in `file`: positions from the open document's text for
/// the document itself, from the database's text for another file.
fn location(
    snapshot: &Snapshot,
    uri: &Uri,
    file: SourceFile,
    range: TextRange,
    encoding: PositionEncoding,
) -> Option<Location> {
    let (target_uri, document) = file_document(snapshot, uri, file, encoding)?;
    Some(Location::new(target_uri, document.range(range)))
}

/// The URI of `file` and a document to convert its byte ranges with: the open document itself,
/// or the database's text of another file (an open one's text is the editor's there too).
/// `None` for a file without a `file:` URI.
fn file_document(
    snapshot: &Snapshot,
    uri: &Uri,
    file: SourceFile,
    encoding: PositionEncoding,
) -> Option<(Uri, Document)> {
    if file == snapshot.file {
        return Some((uri.clone(), snapshot.document.clone()));
    }
    let target_uri = Uri::from_file_path(file.path(snapshot.db()))?;
    Some((
        target_uri,
        Document::new(file.text(snapshot.db()), 0, encoding),
    ))
}

/// Every place the symbol at `position` is written, in this document and (EGGG names
/// inherited through `is like`) in the other files of the workspace.
pub fn references(
    snapshot: &Snapshot,
    position: Position,
    include_declaration: bool,
    encoding: PositionEncoding,
) -> Vec<Location> {
    let offset = snapshot.document.offset(position);
    let found = ide::workspace_references(snapshot.db(), snapshot.file, offset);
    let mut documents: HashMap<SourceFile, Option<(Uri, Document)>> = HashMap::new();
    found
        .into_iter()
        .filter(|reference| include_declaration || !reference.is_definition)
        .filter_map(|reference| {
            let (uri, document) = documents
                .entry(reference.file)
                .or_insert_with(|| file_document(snapshot, &snapshot.uri, reference.file, encoding))
                .as_ref()?;
            Some(Location::new(uri.clone(), document.range(reference.range)))
        })
        .collect()
}

/// The workspace edit renaming the symbol at `position` in every file that writes it, or why it
/// cannot be renamed (to be answered as an error).
pub fn rename(
    snapshot: &Snapshot,
    position: Position,
    new_name: &str,
    encoding: PositionEncoding,
) -> Result<WorkspaceEdit, String> {
    let offset = snapshot.document.offset(position);
    let edits = ide::rename_in_workspace(snapshot.db(), snapshot.file, offset, new_name)?;
    let mut documents: HashMap<SourceFile, (Uri, Document)> = HashMap::new();
    let mut changes: HashMap<Uri, Vec<TextEdit>> = HashMap::new();
    for edit in edits {
        let (uri, document) = match documents.entry(edit.file) {
            std::collections::hash_map::Entry::Occupied(known) => known.into_mut(),
            std::collections::hash_map::Entry::Vacant(slot) => {
                // A file the editor cannot address would be left with the old name.
                let found = file_document(snapshot, &snapshot.uri, edit.file, encoding)
                    .ok_or_else(|| {
                        format!(
                            "{} has no file URI for the editor to change",
                            edit.file.path(snapshot.db()).display()
                        )
                    })?;
                slot.insert(found)
            }
        };
        changes
            .entry(uri.clone())
            .or_default()
            .push(TextEdit::new(document.range(edit.range), edit.new_text));
    }
    Ok(WorkspaceEdit {
        changes: Some(changes),
        ..WorkspaceEdit::default()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Tetris defines `Line`; SideTetris is like Tetris and TwoTetris like SideTetris, all open.
    fn egg_family() -> (crate::session::Session, [Uri; 3]) {
        let mut session = crate::session::Session::new(PositionEncoding::Utf16);
        let files = [
            (
                "file:///w/tetris.egg",
                "game is Tetris\nLine means row is full\n",
            ),
            (
                "file:///w/side.egg",
                "SideTetris is like Tetris\nLine removes row\n",
            ),
            (
                "file:///w/two.egg",
                "TwoTetris is like SideTetris\nlines score twice\n",
            ),
        ];
        let uris = files.map(|(uri, text)| {
            let uri: Uri = uri.parse().unwrap();
            assert!(session.open(uri.clone(), "egg", text, 1));
            uri
        });
        (session, uris)
    }

    #[test]
    fn references_and_rename_of_an_inherited_name_cover_every_file() {
        let (session, [tetris, side, two]) = egg_family();
        let snapshot = session.snapshot(&side).unwrap();
        // `Line` on the second line of side.egg.
        let on_line = Position::new(1, 1);
        let found = references(&snapshot, on_line, true, PositionEncoding::Utf16);
        let places: Vec<(&str, Range)> = found
            .iter()
            .map(|location| (location.uri.as_str(), location.range))
            .collect();
        let line = |line: u32, length: u32| {
            Range::new(Position::new(line, 0), Position::new(line, length))
        };
        assert_eq!(
            places,
            [
                (side.as_str(), line(1, 4)),
                (tetris.as_str(), line(1, 4)),
                (two.as_str(), line(1, 5)),
            ]
        );
        // Without the declaration: Tetris's definition is left out.
        let uses = references(&snapshot, on_line, false, PositionEncoding::Utf16);
        assert_eq!(uses.len(), 2);
        assert!(uses.iter().all(|location| location.uri != tetris));

        let edit = rename(&snapshot, on_line, "Row", PositionEncoding::Utf16).unwrap();
        let changes = edit.changes.unwrap();
        assert_eq!(changes.len(), 3, "{changes:?}");
        assert_eq!(changes[&two], [TextEdit::new(line(1, 5), "Row".to_owned())]);
        assert_eq!(
            changes[&tetris],
            [TextEdit::new(line(1, 4), "Row".to_owned())]
        );
        assert!(
            rename(&snapshot, on_line, "two words", PositionEncoding::Utf16)
                .unwrap_err()
                .contains("not one EGGG word")
        );
    }

    #[test]
    fn a_game_name_is_renamed_in_every_is_like() {
        let (session, [tetris, side, _]) = egg_family();
        let snapshot = session.snapshot(&tetris).unwrap();
        // `Tetris` in `game is Tetris`.
        let edit = rename(
            &snapshot,
            Position::new(0, 9),
            "Blocks",
            PositionEncoding::Utf16,
        )
        .unwrap();
        let changes = edit.changes.unwrap();
        let mut uris: Vec<&str> = changes.keys().map(|uri| uri.as_str()).collect();
        uris.sort();
        assert_eq!(uris, [side.as_str(), tetris.as_str()]);
        assert_eq!(
            changes[&side],
            [TextEdit::new(
                Range::new(Position::new(0, 19), Position::new(0, 25)),
                "Blocks".to_owned()
            )]
        );
    }
}
