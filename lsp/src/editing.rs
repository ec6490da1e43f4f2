//! Requests that write: completion, signature help, range formatting, code actions (fixes,
//! missing parts, GDL syntax conversion). Each answers on a [`Snapshot`] from the analyses, and
//! only converts.

use std::collections::HashMap;

use ludeme_analysis::{self as analysis, Syntax, TextRange, ide};
use tower_lsp_server::ls_types::*;

use crate::convert::to_lsp_diagnostic;
use crate::session::Snapshot;

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
                    .map(|diagnostic| vec![to_lsp_diagnostic(&diagnostic, document, uri)]),
                edit: Some(WorkspaceEdit {
                    changes: Some(HashMap::from([(uri.clone(), edits)])),
                    ..WorkspaceEdit::default()
                }),
                is_preferred: action.preferred.then_some(true),
                ..CodeAction::default()
            })
        })
        .collect();
    if let Some(wrong_syntax) = analysis::gdl::infix_in_kif(snapshot.db(), snapshot.file)
        && let Some(new_uri) = renamed_for(uri, Syntax::GdlInfix)
    {
        actions.push(CodeActionOrCommand::CodeAction(CodeAction {
            title: "Rename the file to `.hrf`: its text is infix GDL".to_owned(),
            kind: Some(CodeActionKind::QUICKFIX),
            diagnostics: Some(vec![to_lsp_diagnostic(wrong_syntax, document, uri)]),
            edit: Some(WorkspaceEdit {
                document_changes: Some(DocumentChanges::Operations(vec![
                    DocumentChangeOperation::Op(ResourceOp::Rename(RenameFile {
                        old_uri: uri.clone(),
                        new_uri,
                        options: None,
                        annotation_id: None,
                    })),
                ])),
                ..WorkspaceEdit::default()
            }),
            is_preferred: Some(true),
            ..CodeAction::default()
        }));
    }
    if let Some(breed) = crate::breeding::breed_action(snapshot, uri) {
        actions.push(breed);
    }
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
}
