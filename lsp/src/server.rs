//! The protocol side: LSP messages mapped onto the [`Session`] and the analysis queries.

use std::sync::{Arc, Mutex, MutexGuard};

use ludeme_analysis as analysis;
use ludeme_analysis::ide;
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

    /// Answers a request about the open document `uri` on a snapshot, off the async runtime;
    /// `None` when the document is not open (or not a game file).
    async fn query<T: Send + 'static>(
        &self,
        uri: &Uri,
        query: impl FnOnce(&Snapshot) -> T + Send + std::panic::UnwindSafe + 'static,
    ) -> Result<Option<T>> {
        let Some(snapshot) = self.session().snapshot(uri) else {
            return Ok(None);
        };
        run_query(snapshot, query).await.map(Some)
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
        if self.session().version(&uri) != Some(version) {
            return;
        }
        self.client
            .publish_diagnostics(uri.clone(), diagnostics.clone(), Some(version))
            .await;
        // Random play takes longer than the static checks: its findings follow in a second
        // publication, from a task of their own so that this notification's handler returns.
        let client = self.client.clone();
        let session = self.session.clone();
        tokio::spawn(async move {
            publish_simulation_diagnostics(client, session, uri, version, diagnostics).await;
        });
    }
}

/// Publishes the static diagnostics again with the editor simulation's findings added, when it
/// has any and the document is still at `version` (an edit cancels the simulation and
/// publishes anew).
async fn publish_simulation_diagnostics(
    client: Client,
    session: Arc<Mutex<Session>>,
    uri: Uri,
    version: i32,
    static_diagnostics: Vec<Diagnostic>,
) {
    let current = |session: &Mutex<Session>| {
        session
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .version(&uri)
    };
    let Some(snapshot) = session
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
        .snapshot(&uri)
        .filter(|snapshot| snapshot.document.version == version)
    else {
        return;
    };
    let document_uri = uri.clone();
    let computed = run_query(snapshot, move |snapshot| {
        analysis::gdl::simulate::lens_anchor(&snapshot.db, snapshot.file)?;
        let simulation = analysis::gdl::simulate::editor_simulation(&snapshot.db, snapshot.file);
        Some(
            simulation
                .diagnostics
                .iter()
                .map(|diagnostic| to_lsp_diagnostic(diagnostic, &snapshot.document, &document_uri))
                .collect::<Vec<_>>(),
        )
    })
    .await;
    let Ok(Some(found)) = computed else {
        return;
    };
    if found.is_empty() || current(&session) != Some(version) {
        return;
    }
    let mut diagnostics = static_diagnostics;
    diagnostics.extend(found);
    client
        .publish_diagnostics(uri, diagnostics, Some(version))
        .await;
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

/// The semantic token types, in the order of [`token_type_index`].
const TOKEN_TYPES: [SemanticTokenType; 6] = [
    SemanticTokenType::KEYWORD,
    SemanticTokenType::FUNCTION,
    SemanticTokenType::TYPE,
    SemanticTokenType::ENUM_MEMBER,
    SemanticTokenType::VARIABLE,
    SemanticTokenType::NUMBER,
];

fn token_type_index(kind: ide::TokenKind) -> u32 {
    match kind {
        ide::TokenKind::Keyword => 0,
        ide::TokenKind::Function => 1,
        ide::TokenKind::Type => 2,
        ide::TokenKind::Constant => 3,
        ide::TokenKind::Variable => 4,
        ide::TokenKind::Number => 5,
    }
}

/// The protocol's relative encoding of tokens (each token's line and start relative to the
/// previous one). Tokens are single-line names, sorted by position.
fn encode_semantic_tokens(
    tokens: &[ide::SemanticToken],
    document: &Document,
) -> Vec<SemanticToken> {
    let mut encoded = Vec::with_capacity(tokens.len());
    let (mut previous_line, mut previous_start) = (0, 0);
    for token in tokens {
        let start = document.position(token.range.start);
        let end = document.position(token.range.end);
        if end.line != start.line {
            continue;
        }
        let delta_line = start.line - previous_line;
        let delta_start = if delta_line == 0 {
            start.character - previous_start
        } else {
            start.character
        };
        encoded.push(SemanticToken {
            delta_line,
            delta_start,
            length: end.character - start.character,
            token_type: token_type_index(token.kind),
            token_modifiers_bitset: u32::from(token.definition),
        });
        (previous_line, previous_start) = (start.line, start.character);
    }
    encoded
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
                hover_provider: Some(HoverProviderCapability::Simple(true)),
                definition_provider: Some(OneOf::Left(true)),
                references_provider: Some(OneOf::Left(true)),
                document_highlight_provider: Some(OneOf::Left(true)),
                rename_provider: Some(OneOf::Right(RenameOptions {
                    prepare_provider: Some(true),
                    work_done_progress_options: WorkDoneProgressOptions::default(),
                })),
                folding_range_provider: Some(FoldingRangeProviderCapability::Simple(true)),
                document_formatting_provider: Some(OneOf::Left(true)),
                code_lens_provider: Some(CodeLensOptions {
                    resolve_provider: Some(true),
                }),
                semantic_tokens_provider: Some(
                    SemanticTokensServerCapabilities::SemanticTokensOptions(
                        SemanticTokensOptions {
                            legend: SemanticTokensLegend {
                                token_types: TOKEN_TYPES.to_vec(),
                                token_modifiers: vec![SemanticTokenModifier::DECLARATION],
                            },
                            full: Some(SemanticTokensFullOptions::Bool(true)),
                            range: None,
                            work_done_progress_options: WorkDoneProgressOptions::default(),
                        },
                    ),
                ),
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
        let symbols = self
            .query(&params.text_document.uri, |snapshot| {
                analysis::document_symbols(&snapshot.db, snapshot.file)
                    .iter()
                    .map(|symbol| to_lsp_symbol(symbol, &snapshot.document))
                    .collect::<Vec<_>>()
            })
            .await?;
        Ok(symbols.map(DocumentSymbolResponse::Nested))
    }

    async fn hover(&self, params: HoverParams) -> Result<Option<Hover>> {
        let position = params.text_document_position_params;
        let hover = self
            .query(&position.text_document.uri, move |snapshot| {
                let offset = snapshot.document.offset(position.position);
                let hover = ide::hover(&snapshot.db, snapshot.file, offset);
                // On a `role` fact, random play's figures and findings follow the usual hover.
                let simulation =
                    analysis::gdl::simulate::role_hover(&snapshot.db, snapshot.file, offset);
                let (range, markdown) = match (hover, simulation) {
                    (None, None) => return None,
                    (Some(hover), None) => (hover.range, hover.markdown),
                    (None, Some((range, details))) => (range, details),
                    (Some(hover), Some((_, details))) => (
                        hover.range,
                        format!("{}\n\n---\n\n{details}", hover.markdown),
                    ),
                };
                Some(Hover {
                    contents: HoverContents::Markup(MarkupContent {
                        kind: MarkupKind::Markdown,
                        value: markdown,
                    }),
                    range: Some(snapshot.document.range(range)),
                })
            })
            .await?;
        Ok(hover.flatten())
    }

    async fn goto_definition(
        &self,
        params: GotoDefinitionParams,
    ) -> Result<Option<GotoDefinitionResponse>> {
        let position = params.text_document_position_params;
        let uri = position.text_document.uri.clone();
        let locations = self
            .query(&position.text_document.uri, move |snapshot| {
                let offset = snapshot.document.offset(position.position);
                ide::definitions(&snapshot.db, snapshot.file, offset)
                    .into_iter()
                    .map(|range| Location::new(uri.clone(), snapshot.document.range(range)))
                    .collect::<Vec<_>>()
            })
            .await?;
        Ok(locations
            .filter(|locations| !locations.is_empty())
            .map(GotoDefinitionResponse::Array))
    }

    async fn references(&self, params: ReferenceParams) -> Result<Option<Vec<Location>>> {
        let position = params.text_document_position;
        let include_declaration = params.context.include_declaration;
        let uri = position.text_document.uri.clone();
        self.query(&position.text_document.uri, move |snapshot| {
            let offset = snapshot.document.offset(position.position);
            ide::references(&snapshot.db, snapshot.file, offset)
                .into_iter()
                .filter(|reference| include_declaration || !reference.is_definition)
                .map(|reference| {
                    Location::new(uri.clone(), snapshot.document.range(reference.range))
                })
                .collect()
        })
        .await
    }

    async fn document_highlight(
        &self,
        params: DocumentHighlightParams,
    ) -> Result<Option<Vec<DocumentHighlight>>> {
        let position = params.text_document_position_params;
        self.query(&position.text_document.uri, move |snapshot| {
            let offset = snapshot.document.offset(position.position);
            ide::references(&snapshot.db, snapshot.file, offset)
                .into_iter()
                .map(|reference| DocumentHighlight {
                    range: snapshot.document.range(reference.range),
                    kind: Some(if reference.is_definition {
                        DocumentHighlightKind::WRITE
                    } else {
                        DocumentHighlightKind::READ
                    }),
                })
                .collect()
        })
        .await
    }

    async fn prepare_rename(
        &self,
        params: TextDocumentPositionParams,
    ) -> Result<Option<PrepareRenameResponse>> {
        let answer = self
            .query(&params.text_document.uri, move |snapshot| {
                let offset = snapshot.document.offset(params.position);
                ide::prepare_rename(&snapshot.db, snapshot.file, offset)
                    .map(|range| snapshot.document.range(range))
            })
            .await?;
        match answer {
            None => Ok(None),
            Some(Ok(range)) => Ok(Some(PrepareRenameResponse::Range(range))),
            Some(Err(why)) => Err(Error::invalid_params(why)),
        }
    }

    async fn rename(&self, params: RenameParams) -> Result<Option<WorkspaceEdit>> {
        let position = params.text_document_position;
        let uri = position.text_document.uri.clone();
        let new_name = params.new_name;
        let answer = self
            .query(&position.text_document.uri, move |snapshot| {
                let offset = snapshot.document.offset(position.position);
                ide::rename(&snapshot.db, snapshot.file, offset, &new_name).map(|edits| {
                    edits
                        .into_iter()
                        .map(|(range, text)| TextEdit::new(snapshot.document.range(range), text))
                        .collect::<Vec<_>>()
                })
            })
            .await?;
        match answer {
            None => Ok(None),
            Some(Ok(edits)) => Ok(Some(WorkspaceEdit {
                changes: Some(std::iter::once((uri, edits)).collect()),
                ..WorkspaceEdit::default()
            })),
            Some(Err(why)) => Err(Error::invalid_params(why)),
        }
    }

    async fn formatting(&self, params: DocumentFormattingParams) -> Result<Option<Vec<TextEdit>>> {
        let edits = self
            .query(&params.text_document.uri, |snapshot| {
                let syntax = snapshot.file.syntax(&snapshot.db);
                // A file with errors is left as it is: formatting never loses text.
                let formatted =
                    analysis::gdl::format_gdl(&snapshot.db, snapshot.file, syntax).ok()?;
                let text = snapshot.file.text(&snapshot.db);
                (formatted != **text).then(|| {
                    let whole = analysis::TextRange::new(0, text.len());
                    vec![TextEdit::new(snapshot.document.range(whole), formatted)]
                })
            })
            .await?;
        Ok(edits.flatten())
    }

    async fn folding_range(&self, params: FoldingRangeParams) -> Result<Option<Vec<FoldingRange>>> {
        self.query(&params.text_document.uri, |snapshot| {
            ide::folding_ranges(&snapshot.db, snapshot.file)
                .into_iter()
                .filter_map(|range| {
                    let (start, end) = (
                        snapshot.document.position(range.start),
                        snapshot.document.position(range.end),
                    );
                    (end.line > start.line).then_some(FoldingRange {
                        start_line: start.line,
                        start_character: None,
                        end_line: end.line,
                        end_character: None,
                        kind: None,
                        collapsed_text: None,
                    })
                })
                .collect()
        })
        .await
    }

    /// One lens above the first `role` of a GDL file. Its title (the summary of random play)
    /// is left to `codeLens/resolve`, so that listing lenses never waits for the simulation.
    async fn code_lens(&self, params: CodeLensParams) -> Result<Option<Vec<CodeLens>>> {
        let uri = params.text_document.uri;
        let data = serde_json::json!({ "uri": uri.as_str() });
        let lens = self
            .query(&uri, move |snapshot| {
                let anchor = analysis::gdl::simulate::lens_anchor(&snapshot.db, snapshot.file)?;
                let start = snapshot.document.range(anchor).start;
                Some(vec![CodeLens {
                    range: Range::new(start, start),
                    command: None,
                    data: Some(data),
                }])
            })
            .await?;
        Ok(lens.flatten())
    }

    /// Plays the game within the editor's budget (off the protocol thread, cancelled by an
    /// edit) and titles the lens with the summary.
    async fn code_lens_resolve(&self, mut lens: CodeLens) -> Result<CodeLens> {
        let uri = lens
            .data
            .as_ref()
            .and_then(|data| data.get("uri"))
            .and_then(|uri| uri.as_str())
            .and_then(|uri| uri.parse::<Uri>().ok())
            .ok_or_else(|| Error::invalid_params("the code lens carries no document URI"))?;
        let title = self
            .query(&uri, |snapshot| {
                analysis::gdl::simulate::editor_simulation(&snapshot.db, snapshot.file).headline()
            })
            .await?
            .unwrap_or_else(|| "the document is no longer open".to_owned());
        // No command to run: the lens is a label (the details are on the hover of `role`).
        lens.command = Some(Command {
            title,
            command: String::new(),
            arguments: None,
        });
        Ok(lens)
    }

    async fn semantic_tokens_full(
        &self,
        params: SemanticTokensParams,
    ) -> Result<Option<SemanticTokensResult>> {
        let tokens = self
            .query(&params.text_document.uri, |snapshot| {
                encode_semantic_tokens(
                    &ide::semantic_tokens(&snapshot.db, snapshot.file),
                    &snapshot.document,
                )
            })
            .await?;
        Ok(tokens.map(|data| {
            SemanticTokensResult::Tokens(SemanticTokens {
                result_id: None,
                data,
            })
        }))
    }
}
