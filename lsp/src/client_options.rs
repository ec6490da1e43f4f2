//! What the client supports and wants ([`EditorOptions`], read at `initialize` and on
//! `workspace/didChangeConfiguration`), and the capabilities the server announces for the editor
//! features.

use std::sync::atomic::{AtomicBool, Ordering};

use serde_json::Value;
use tower_lsp_server::ls_types::*;

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
                crate::breeding::BREED_KIND,
            ]),
            resolve_provider: Some(true),
            work_done_progress_options: WorkDoneProgressOptions::default(),
        }));
    capabilities.inlay_hint_provider = Some(OneOf::Left(true));
    capabilities.execute_command_provider = Some(ExecuteCommandOptions {
        commands: vec![crate::breeding::BREED_COMMAND.to_owned()],
        work_done_progress_options: WorkDoneProgressOptions::default(),
    });
}

#[cfg(test)]
mod tests {
    use super::*;

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
