//! The per-document editor features over the protocol: completion, signature help, selection
//! ranges, range formatting, code actions, inlay hints and cross-file definitions. Each function
//! answers one request on a [`Snapshot`] from the analyses of `ludeme_analysis::ide`, and only
//! converts: byte ranges to positions, analysis types to protocol types.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};

use ludeme_analysis::{self as analysis, SourceFile, Syntax, TextRange, ide};
use serde_json::Value;
use tower_lsp_server::ls_types::*;

use crate::document::{Document, PositionEncoding};
use crate::session::Snapshot;

/// What the client said it supports or wants, read at `initialize` (and, for the settings, on
/// `workspace/didChangeConfiguration`).
#[derive(Debug, Default)]
pub struct EditorOptions {
    /// Completion items may carry snippets (`${1:length}` tab stops).
    pub snippets: AtomicBool,
    /// `ludeme.inlayHints.english`: the English of each rule as an inlay hint.
    pub english_hints: AtomicBool,
}

impl EditorOptions {
    /// Reads what `initialize` says: snippet support, and the settings in
    /// `initializationOptions`.
    pub fn initialize(&self, params: &InitializeParams) {
        let snippets = params
            .capabilities
            .text_document
            .as_ref()
            .and_then(|text| text.completion.as_ref())
            .and_then(|completion| completion.completion_item.as_ref())
            .and_then(|item| item.snippet_support)
            .unwrap_or(false);
        self.snippets.store(snippets, Ordering::Relaxed);
        self.english_hints.store(false, Ordering::Relaxed);
        if let Some(settings) = &params.initialization_options {
            self.apply_settings(settings);
        }
    }

    /// Reads `ludeme.inlayHints.english` from client settings, in the shapes editors send:
    /// nested (`{"ludeme": {"inlayHints": {"english": true}}}`), without the section, or as a
    /// dotted key. Settings that do not mention it leave it as it is.
    pub fn apply_settings(&self, settings: &Value) {
        let root = settings.get("ludeme").unwrap_or(settings);
        let english = root
            .get("inlayHints")
            .and_then(|hints| hints.get("english"))
            .or_else(|| settings.get("ludeme.inlayHints.english"))
            .or_else(|| settings.get("inlayHints.english"))
            .and_then(Value::as_bool);
        if let Some(english) = english {
            self.english_hints.store(english, Ordering::Relaxed);
        }
    }
}

/// The capabilities of the features of this module, merged into the server's.
pub fn add_capabilities(capabilities: &mut ServerCapabilities) {
    capabilities.completion_provider = Some(CompletionOptions {
        trigger_characters: Some(vec!["(".to_owned(), " ".to_owned()]),
        ..CompletionOptions::default()
    });
    capabilities.signature_help_provider = Some(SignatureHelpOptions {
        trigger_characters: Some(vec!["(".to_owned(), " ".to_owned(), ",".to_owned()]),
        retrigger_characters: None,
        work_done_progress_options: WorkDoneProgressOptions::default(),
    });
    capabilities.selection_range_provider = Some(SelectionRangeProviderCapability::Simple(true));
    capabilities.document_range_formatting_provider = Some(OneOf::Left(true));
    capabilities.code_action_provider =
        Some(CodeActionProviderCapability::Options(CodeActionOptions {
            code_action_kinds: Some(vec![
                CodeActionKind::QUICKFIX,
                CodeActionKind::REFACTOR_REWRITE,
            ]),
            resolve_provider: Some(true),
            work_done_progress_options: WorkDoneProgressOptions::default(),
        }));
    capabilities.inlay_hint_provider = Some(OneOf::Left(true));
}

pub fn completion(snapshot: &Snapshot, position: Position, snippets: bool) -> CompletionResponse {
    let offset = snapshot.document.offset(position);
    // Matched to the word typed, ranked and capped: a cut list is incomplete, so that the
    // editor asks again as the user types on rather than filtering what it was given.
    let completions = ide::completions(snapshot.db(), snapshot.file, offset);
    let items = completions
        .items
        .into_iter()
        .enumerate()
        .map(|(rank, completion)| {
            let kind = match completion.kind {
                ide::CompletionKind::Keyword => CompletionItemKind::KEYWORD,
                ide::CompletionKind::Ludeme => CompletionItemKind::FUNCTION,
                ide::CompletionKind::Relation => CompletionItemKind::FUNCTION,
                ide::CompletionKind::Function => CompletionItemKind::STRUCT,
                ide::CompletionKind::Constant => CompletionItemKind::CONSTANT,
                ide::CompletionKind::Variable => CompletionItemKind::VARIABLE,
                ide::CompletionKind::Statement => CompletionItemKind::SNIPPET,
            };
            let (insert_text, insert_text_format) = match completion.snippet {
                Some(snippet) if snippets => (Some(snippet), Some(InsertTextFormat::SNIPPET)),
                _ => (None, None),
            };
            CompletionItem {
                label: completion.label,
                kind: Some(kind),
                detail: Some(completion.detail),
                insert_text,
                insert_text_format,
                // Editors sort by this among equally good matches: keep the ranking.
                sort_text: Some(format!("{rank:04}")),
                ..CompletionItem::default()
            }
        })
        .collect();
    CompletionResponse::List(CompletionList {
        is_incomplete: completions.is_incomplete,
        items,
    })
}

pub fn signature_help(snapshot: &Snapshot, position: Position) -> Option<SignatureHelp> {
    let offset = snapshot.document.offset(position);
    let help = ide::signature_help(snapshot.db(), snapshot.file, offset)?;
    let active_parameter = help.active_parameter.map(|index| index as u32);
    Some(SignatureHelp {
        signatures: vec![SignatureInformation {
            label: help.label,
            documentation: Some(Documentation::MarkupContent(MarkupContent {
                kind: MarkupKind::Markdown,
                value: help.documentation,
            })),
            parameters: Some(
                help.parameters
                    .into_iter()
                    .map(|parameter| ParameterInformation {
                        label: ParameterLabel::Simple(parameter),
                        documentation: None,
                    })
                    .collect(),
            ),
            active_parameter,
        }],
        active_signature: Some(0),
        active_parameter,
    })
}

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

/// The edit formatting the GDL forms `range` touches; `None` when there is nothing to change
/// or the forms do not format (a file with errors is left as it is).
pub fn range_formatting(snapshot: &Snapshot, range: Range) -> Option<Vec<TextEdit>> {
    let range = TextRange::new(
        snapshot.document.offset(range.start),
        snapshot.document.offset(range.end),
    );
    let (span, text) = snapshot
        .analysis
        .format_range(snapshot.file, range)
        .unwrap_or_else(|cancelled| analysis::resume_cancelled(cancelled))?;
    Some(vec![TextEdit::new(snapshot.document.range(span), text)])
}

/// What `codeAction/resolve` needs to compute a conversion's edit.
const CONVERSION: &str = "convert-gdl";

pub fn code_actions(snapshot: &Snapshot, uri: &Uri, range: Range) -> CodeActionResponse {
    let document = &snapshot.document;
    let range = TextRange::new(document.offset(range.start), document.offset(range.end));
    let mut actions: CodeActionResponse = ide::code_actions(snapshot.db(), snapshot.file, range)
        .into_iter()
        .map(|action| {
            let edits = action
                .edits
                .into_iter()
                .map(|(range, text)| TextEdit::new(document.range(range), text))
                .collect();
            CodeActionOrCommand::CodeAction(CodeAction {
                title: action.title,
                kind: Some(match action.kind {
                    ide::CodeActionKind::QuickFix => CodeActionKind::QUICKFIX,
                    ide::CodeActionKind::Rewrite => CodeActionKind::REFACTOR_REWRITE,
                }),
                diagnostics: action
                    .diagnostic
                    .map(|diagnostic| vec![protocol_diagnostic(&diagnostic, document)]),
                edit: Some(WorkspaceEdit {
                    changes: Some(HashMap::from([(uri.clone(), edits)])),
                    ..WorkspaceEdit::default()
                }),
                is_preferred: action.preferred.then_some(true),
                ..CodeAction::default()
            })
        })
        .collect();
    // The conversion is computed on resolve: listing actions must stay cheap.
    if let Some(target) = ide::conversion_target(snapshot.db(), snapshot.file) {
        actions.push(CodeActionOrCommand::CodeAction(CodeAction {
            title: format!("Convert the file to {}", target.display_name()),
            kind: Some(CodeActionKind::REFACTOR_REWRITE),
            data: Some(serde_json::json!({
                "kind": CONVERSION,
                "uri": uri.as_str(),
                "version": document.version,
            })),
            ..CodeAction::default()
        }));
    }
    actions
}

/// The document a code action to resolve is about, when it is one of ours.
pub fn action_uri(action: &CodeAction) -> Option<Uri> {
    let data = action.data.as_ref()?;
    (data.get("kind")?.as_str()? == CONVERSION)
        .then(|| data.get("uri")?.as_str()?.parse().ok())
        .flatten()
}

/// Fills in the conversion's edit: the whole text replaced by the other syntax and, for a file
/// whose extension names its syntax (`.kif`, `.hrf`), the file renamed to match, so that it is
/// read as what it now holds. A conversion that fails (the text changed meanwhile and no
/// longer converts) comes back disabled, with the reason.
pub fn resolve_conversion(snapshot: &Snapshot, uri: &Uri, mut action: CodeAction) -> CodeAction {
    let document = &snapshot.document;
    match ide::convert_gdl(snapshot.db(), snapshot.file) {
        Ok((target, text)) => {
            let whole = document.range(TextRange::new(0, snapshot.file.text(snapshot.db()).len()));
            let edit = TextDocumentEdit {
                text_document: OptionalVersionedTextDocumentIdentifier {
                    uri: uri.clone(),
                    version: Some(document.version),
                },
                edits: vec![OneOf::Left(TextEdit::new(whole, text))],
            };
            let mut operations = vec![DocumentChangeOperation::Edit(edit)];
            if let Some(new_uri) = renamed_for(uri, target) {
                operations.push(DocumentChangeOperation::Op(ResourceOp::Rename(
                    RenameFile {
                        old_uri: uri.clone(),
                        new_uri,
                        options: None,
                        annotation_id: None,
                    },
                )));
            }
            action.edit = Some(WorkspaceEdit {
                document_changes: Some(DocumentChanges::Operations(operations)),
                ..WorkspaceEdit::default()
            });
        }
        Err(why) => {
            action.disabled = Some(CodeActionDisabled {
                reason: why.to_string(),
            });
        }
    }
    action
}

/// The URI with the extension of `target` when the current extension names the other syntax;
/// `.gdl` files are recognised by their content and keep their name.
fn renamed_for(uri: &Uri, target: Syntax) -> Option<Uri> {
    let text = uri.as_str();
    let (stem, extension) = text.rsplit_once('.')?;
    if extension.contains('/') {
        return None;
    }
    let new_extension = match (extension.to_ascii_lowercase().as_str(), target) {
        ("kif", Syntax::GdlInfix) => "hrf",
        ("hrf", Syntax::GdlKif) => "kif",
        _ => return None,
    };
    format!("{stem}.{new_extension}").parse().ok()
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

/// A diagnostic as the protocol writes it, for a code action to name what it fixes (the
/// editor matches it by range, code and message).
fn protocol_diagnostic(diagnostic: &analysis::Diagnostic, document: &Document) -> Diagnostic {
    Diagnostic {
        range: document.range(diagnostic.range),
        severity: Some(match diagnostic.severity {
            analysis::Severity::Error => DiagnosticSeverity::ERROR,
            analysis::Severity::Warning => DiagnosticSeverity::WARNING,
            analysis::Severity::Info => DiagnosticSeverity::INFORMATION,
        }),
        code: Some(NumberOrString::String(diagnostic.code.to_owned())),
        source: Some("ludeme".to_owned()),
        message: diagnostic.message.clone(),
        ..Diagnostic::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conversion_renames_files_whose_extension_names_the_syntax() {
        let kif: Uri = "file:///games/tic.kif".parse().unwrap();
        assert_eq!(
            renamed_for(&kif, Syntax::GdlInfix).map(|uri| uri.as_str().to_owned()),
            Some("file:///games/tic.hrf".to_owned())
        );
        let gdl: Uri = "file:///games/tic.gdl".parse().unwrap();
        assert_eq!(renamed_for(&gdl, Syntax::GdlInfix), None);
        let odd: Uri = "file:///games.kif/tic".parse().unwrap();
        assert_eq!(renamed_for(&odd, Syntax::GdlInfix), None);
    }

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

    #[test]
    fn english_hints_are_read_from_every_settings_shape() {
        for settings in [
            serde_json::json!({"ludeme": {"inlayHints": {"english": true}}}),
            serde_json::json!({"inlayHints": {"english": true}}),
            serde_json::json!({"ludeme.inlayHints.english": true}),
        ] {
            let options = EditorOptions::default();
            options.apply_settings(&settings);
            assert!(options.english_hints.load(Ordering::Relaxed), "{settings}");
            // Settings about something else leave it on.
            options.apply_settings(&serde_json::json!({"ludeme": {"probe": {"games": 3}}}));
            assert!(options.english_hints.load(Ordering::Relaxed));
        }
    }
}
