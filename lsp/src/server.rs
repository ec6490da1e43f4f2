//! The protocol side: LSP messages mapped onto the [`Session`] and the analysis queries.

use std::sync::{Arc, Mutex, MutexGuard};

use ludeme_analysis as analysis;
use tower_lsp_server::jsonrpc::{Error, ErrorCode, Result};
use tower_lsp_server::ls_types::*;
use tower_lsp_server::{Client, LanguageServer};

use crate::document::{Document, PositionEncoding};
use crate::session::{Session, Snapshot};

/// JSON-RPC error code for a request whose document changed while it was being answered.
const CONTENT_MODIFIED: i64 = -32801;

pub struct Backend {
    client: Client,
    session: Arc<Mutex<Session>>,
}

impl Backend {
    pub fn new(client: Client) -> Self {
        Self {
            client,
            session: Arc::default(),
        }
    }

    /// The session, even if a panicking request poisoned the lock: the state is only written
    /// by whole-step operations, so it stays usable.
    fn session(&self) -> MutexGuard<'_, Session> {
        self.session
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Computes and publishes the diagnostics of `uri` on a blocking thread. Stale results (the
    /// document changed meanwhile) are dropped: the change that made them stale publishes anew.
    async fn publish_diagnostics(&self, uri: Uri) {
        let Some(snapshot) = self.session().snapshot(&uri) else {
            return;
        };
        let version = snapshot.document.version;
        let document_uri = uri.clone();
        let computed = run_query(snapshot, move |snapshot| {
            analysis::file_diagnostics(&snapshot.db, snapshot.file)
                .iter()
                .map(|diagnostic| to_lsp_diagnostic(diagnostic, &snapshot.document, &document_uri))
                .collect::<Vec<_>>()
        })
        .await;
        let Ok(diagnostics) = computed else {
            return;
        };
        if self.session().version(&uri) == Some(version) {
            self.client
                .publish_diagnostics(uri, diagnostics, Some(version))
                .await;
        }
    }
}

/// Runs `query` on a snapshot off the async runtime. Salsa cancellation (a newer edit) and
/// panics become JSON-RPC errors instead of taking the server down.
async fn run_query<T: Send + 'static>(
    snapshot: Snapshot,
    query: impl FnOnce(&Snapshot) -> T + Send + std::panic::UnwindSafe + 'static,
) -> Result<T> {
    let task = tokio::task::spawn_blocking(move || {
        let snapshot = std::panic::AssertUnwindSafe(snapshot);
        salsa::Cancelled::catch(move || query(&snapshot))
    });
    match task.await {
        Ok(Ok(value)) => Ok(value),
        Ok(Err(_cancelled)) => Err(Error {
            code: ErrorCode::ServerError(CONTENT_MODIFIED),
            message: "the document changed while the request was being answered".into(),
            data: None,
        }),
        Err(join_error) => {
            let mut error = Error::internal_error();
            error.message = format!("the request failed inside the server: {join_error}").into();
            Err(error)
        }
    }
}

fn to_lsp_diagnostic(
    diagnostic: &analysis::Diagnostic,
    document: &Document,
    uri: &Uri,
) -> Diagnostic {
    let severity = match diagnostic.severity {
        analysis::Severity::Error => DiagnosticSeverity::ERROR,
        analysis::Severity::Warning => DiagnosticSeverity::WARNING,
        analysis::Severity::Info => DiagnosticSeverity::INFORMATION,
    };
    let related: Vec<DiagnosticRelatedInformation> = diagnostic
        .labels
        .iter()
        .map(|label| DiagnosticRelatedInformation {
            location: Location::new(uri.clone(), document.range(label.range)),
            message: label.message.clone(),
        })
        .collect();
    Diagnostic {
        range: document.range(diagnostic.range),
        severity: Some(severity),
        code: Some(NumberOrString::String(diagnostic.code.to_owned())),
        source: Some("ludeme".to_owned()),
        message: diagnostic.message.clone(),
        related_information: (!related.is_empty()).then_some(related),
        ..Diagnostic::default()
    }
}

fn to_lsp_symbol(symbol: &analysis::DocumentSymbol, document: &Document) -> DocumentSymbol {
    let kind = match symbol.kind {
        analysis::SymbolKind::Game => SymbolKind::MODULE,
        analysis::SymbolKind::Ludeme => SymbolKind::PROPERTY,
        analysis::SymbolKind::Definition => SymbolKind::FUNCTION,
        analysis::SymbolKind::Fact => SymbolKind::CONSTANT,
        analysis::SymbolKind::Inheritance => SymbolKind::CLASS,
        analysis::SymbolKind::Assertion => SymbolKind::EVENT,
    };
    #[allow(deprecated)] // `deprecated` is a required field of the protocol type
    DocumentSymbol {
        name: if symbol.name.is_empty() {
            "?".to_owned()
        } else {
            symbol.name.clone()
        },
        detail: symbol.detail.clone(),
        kind,
        tags: None,
        deprecated: None,
        range: document.range(symbol.range),
        selection_range: document.range(symbol.selection_range),
        children: (!symbol.children.is_empty()).then(|| {
            symbol
                .children
                .iter()
                .map(|child| to_lsp_symbol(child, document))
                .collect()
        }),
    }
}

fn negotiate_encoding(params: &InitializeParams) -> PositionEncoding {
    let offered = params
        .capabilities
        .general
        .as_ref()
        .and_then(|general| general.position_encodings.as_ref());
    match offered {
        Some(kinds) if kinds.contains(&PositionEncodingKind::UTF8) => PositionEncoding::Utf8,
        _ => PositionEncoding::Utf16,
    }
}

impl LanguageServer for Backend {
    async fn initialize(&self, params: InitializeParams) -> Result<InitializeResult> {
        let encoding = negotiate_encoding(&params);
        *self.session() = Session::new(encoding);
        let position_encoding = match encoding {
            PositionEncoding::Utf8 => PositionEncodingKind::UTF8,
            PositionEncoding::Utf16 => PositionEncodingKind::UTF16,
        };
        Ok(InitializeResult {
            capabilities: ServerCapabilities {
                position_encoding: Some(position_encoding),
                text_document_sync: Some(TextDocumentSyncCapability::Options(
                    TextDocumentSyncOptions {
                        open_close: Some(true),
                        change: Some(TextDocumentSyncKind::INCREMENTAL),
                        ..TextDocumentSyncOptions::default()
                    },
                )),
                document_symbol_provider: Some(OneOf::Left(true)),
                ..ServerCapabilities::default()
            },
            server_info: Some(ServerInfo {
                name: "ludeme".to_owned(),
                version: Some(env!("CARGO_PKG_VERSION").to_owned()),
            }),
            offset_encoding: None,
        })
    }

    async fn shutdown(&self) -> Result<()> {
        Ok(())
    }

    async fn did_open(&self, params: DidOpenTextDocumentParams) {
        let document = params.text_document;
        let opened = self.session().open(
            document.uri.clone(),
            &document.language_id,
            &document.text,
            document.version,
        );
        if opened {
            self.publish_diagnostics(document.uri).await;
        }
    }

    async fn did_change(&self, params: DidChangeTextDocumentParams) {
        let uri = params.text_document.uri;
        let changed =
            self.session()
                .change(&uri, params.text_document.version, &params.content_changes);
        if changed {
            self.publish_diagnostics(uri).await;
        }
    }

    async fn did_close(&self, params: DidCloseTextDocumentParams) {
        let uri = params.text_document.uri;
        self.session().close(&uri);
        // Diagnostics of a closed file would linger in the editor's problem list otherwise.
        self.client.publish_diagnostics(uri, Vec::new(), None).await;
    }

    async fn document_symbol(
        &self,
        params: DocumentSymbolParams,
    ) -> Result<Option<DocumentSymbolResponse>> {
        let Some(snapshot) = self.session().snapshot(&params.text_document.uri) else {
            return Ok(None);
        };
        let symbols = run_query(snapshot, |snapshot| {
            analysis::document_symbols(&snapshot.db, snapshot.file)
                .iter()
                .map(|symbol| to_lsp_symbol(symbol, &snapshot.document))
                .collect::<Vec<_>>()
        })
        .await?;
        Ok(Some(DocumentSymbolResponse::Nested(symbols)))
    }
}
