//! The protocol side: LSP messages mapped onto the [`Session`] and the analysis queries.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use ludeme_analysis as analysis;
use ludeme_analysis::ide;
use tower_lsp_server::jsonrpc::{Error, Result};
use tower_lsp_server::ls_types::*;
use tower_lsp_server::{Client, LanguageServer};

use crate::config::ClientSettings;
use crate::convert::{TOKEN_TYPES, encode_semantic_tokens, symbol_kind, to_lsp_outline};
use crate::document::PositionEncoding;
use crate::findings;
use crate::lenses::{self, LensJobs};
use crate::lock;
use crate::scheduler::{is_content_modified, run_cancellable, run_query};
use crate::session::{Session, Snapshot};
use crate::workspace::{self, ClientSupport, FileChange};
use crate::{client_options, display, editing, navigation};

pub struct Backend {
    client: Client,
    session: Arc<Mutex<Session>>,
    /// Code lens work, running or done (`lenses.rs`).
    lenses: Arc<LensJobs>,
    /// What the client announced it supports, set by `initialize`.
    support: Mutex<ClientSupport>,
    /// Snippet support and the editor features' settings (`client_options.rs`).
    editor: client_options::EditorOptions,
    /// Every publication of diagnostics goes through it, in version order.
    publisher: findings::Publisher,
    /// How many workspace scans were started: a scan that finishes after a later one started
    /// is dropped (it read the disk earlier).
    scans_started: AtomicU64,
    /// Whether a workspace scan has landed: until then the known games are the open documents
    /// only, and `ludeme/diagnostics` waits.
    scan_landed: tokio::sync::watch::Sender<bool>,
    /// Whether a lens was answered provisionally because the scan had not landed: the landing
    /// then asks the client to resolve its lenses again.
    lens_refresh_owed: AtomicBool,
    /// Whether the client hung up: the server's own requests stop waiting for an answer then.
    client_gone: crate::framing::ClientGone,
}

impl Backend {
    pub(crate) fn new(client: Client, client_gone: crate::framing::ClientGone) -> Self {
        let session: Arc<Mutex<Session>> = Arc::default();
        Self {
            publisher: findings::Publisher::new(client.clone(), session.clone()),
            client,
            session,
            lenses: Arc::default(),
            support: Mutex::default(),
            editor: client_options::EditorOptions::default(),
            scans_started: AtomicU64::default(),
            scan_landed: tokio::sync::watch::Sender::new(false),
            lens_refresh_owed: AtomicBool::new(false),
            client_gone,
        }
    }

    fn support(&self) -> ClientSupport {
        *lock(&self.support)
    }

    /// Reads the settings and the game files of the workspace again (off the protocol thread),
    /// then publishes anew what they change: the settings file's own diagnostics, and those of
    /// every open document (rule selection, `is like` bases, known games).
    async fn rescan_workspace(&self) {
        let (roots, client_settings) = {
            let session = self.session();
            (session.roots(), session.settings().client)
        };
        let scan_roots = roots.clone();
        let this_scan = self.scans_started.fetch_add(1, Ordering::SeqCst) + 1;
        let Ok(scan) = tokio::task::spawn_blocking(move || {
            if let Some(delay) = std::env::var(crate::TEST_SCAN_DELAY)
                .ok()
                .and_then(|ms| ms.parse().ok())
            {
                std::thread::sleep(std::time::Duration::from_millis(delay));
            }
            workspace::scan(&scan_roots, client_settings)
        })
        .await
        else {
            // The scan panicked: no scan will bring more, so what waits for one goes ahead.
            if self.announce_landing() {
                self.refresh_lenses().await;
            }
            return;
        };
        if self.scans_started.load(Ordering::SeqCst) != this_scan {
            return;
        }
        let config = scan.config_file_and_diagnostics();
        let changed = self.session().apply_scan(roots, scan);
        let lenses_owed = self.announce_landing();
        if let Some((uri, diagnostics)) = config {
            self.publisher.publish_unversioned(uri, diagnostics).await;
        }
        if changed {
            self.publish_all_open().await;
        }
        if changed || lenses_owed {
            self.refresh_lenses().await;
        }
    }

    /// Whether the workspace scan has landed, for a lens about to be resolved. Lenses read the
    /// other games (the nearest one, an `is like` base): one resolved before the scan would
    /// give a final answer about too few games. A client that can be asked to refresh its
    /// lenses waits briefly, then gets a provisional title and is asked again at the landing;
    /// one that cannot is answered once the scan has landed.
    async fn scan_landed_for_lenses(&self) -> bool {
        if !self.support().lens_refresh {
            self.wait_for_scan().await;
            return true;
        }
        if tokio::time::timeout(lenses::QUICK_RESOLVE, self.wait_for_scan())
            .await
            .is_ok()
        {
            return true;
        }
        // The debt is recorded under the channel's lock, which the landing takes too: either
        // the landing came first and is seen here, or it comes after and sees the debt.
        let mut landed_meanwhile = false;
        self.scan_landed.send_if_modified(|landed| {
            if *landed {
                landed_meanwhile = true;
            } else {
                self.lens_refresh_owed.store(true, Ordering::SeqCst);
            }
            false
        });
        landed_meanwhile
    }

    /// Announces that a scan has landed (or that none will come: it panicked); and whether a
    /// lens was answered provisionally meanwhile, so that the client must be asked again.
    fn announce_landing(&self) -> bool {
        self.scan_landed.send_replace(true);
        self.lens_refresh_owed.swap(false, Ordering::SeqCst)
    }

    /// Waits until a workspace scan has landed.
    async fn wait_for_scan(&self) {
        let mut landed = self.scan_landed.subscribe();
        // The sender lives as long as the server: waiting cannot fail.
        let _ = landed.wait_for(|landed| *landed).await;
    }

    /// Runs `change` on the session; and whether the known games changed (their lists or
    /// texts: the other documents' nearest-game lenses then change).
    fn changing_known_games<T>(&self, change: impl FnOnce(&mut Session) -> T) -> (T, bool) {
        let mut session = self.session();
        session.take_known_change();
        let result = change(&mut session);
        let changed = session.take_known_change();
        (result, changed)
    }

    /// Asks the client to resolve its lenses again (when it can be asked): what they show
    /// changed outside the documents (see `lenses.rs`).
    async fn refresh_lenses(&self) {
        if self.support().lens_refresh {
            let _ = self
                .client_gone
                .unless_gone(self.client.code_lens_refresh())
                .await;
        }
    }

    async fn publish_all_open(&self) {
        let open = self.session().open_uris();
        for uri in open {
            self.publish_diagnostics(uri).await;
        }
    }

    /// Asks the client to watch the game files and `ludeme.toml` (when it can be asked).
    async fn register_file_watching(&self) {
        if !self.support().watch_registration {
            return;
        }
        let registration = workspace::file_watch_registration();
        let registered = self
            .client_gone
            .unless_gone(self.client.register_capability(vec![registration]))
            .await;
        if let Some(Err(error)) = registered {
            self.client
                .log_message(
                    MessageType::WARNING,
                    format!("Ludeme: the client refused file watching ({error}); files changed outside the editor are not seen"),
                )
                .await;
        }
    }

    /// `ludeme/diagnostics`: every diagnostic of an open document at its current version, as
    /// the second round publishes them (what `ludeme check` reports, and random play unless
    /// `ludeme.randomPlay` is off), answered once the workspace scan has landed. For tools and
    /// tests that need the final diagnostics of a version without waiting for publications.
    pub async fn document_diagnostics(
        &self,
        params: serde_json::Value,
    ) -> Result<serde_json::Value> {
        let uri = document_uri_param(&params)?;
        self.wait_for_scan().await;
        loop {
            let Some(snapshot) = self.session().snapshot(&uri) else {
                return Err(Error::invalid_params(format!(
                    "{} is not open",
                    uri.as_str()
                )));
            };
            let version = snapshot.document.version;
            match run_query(snapshot, findings::full_diagnostics).await {
                Ok(diagnostics) => {
                    return Ok(
                        serde_json::json!({ "version": version, "diagnostics": diagnostics }),
                    );
                }
                Err(error) if is_content_modified(&error) => continue,
                Err(error) => return Err(error),
            }
        }
    }

    /// `ludeme/rulebook`: the rulebook of an open document as Markdown, from its current text
    /// (unsaved edits included), for the editors' rulebook beside the game. Answers
    /// `{"version", "title", "markdown"}`; `ContentModified` when the document is edited while
    /// it is computed (the editor asks again after its edit).
    pub async fn document_rulebook(&self, params: serde_json::Value) -> Result<serde_json::Value> {
        let uri = document_uri_param(&params)?;
        let answer = self
            .query(&uri, |snapshot| {
                let book = snapshot
                    .analysis
                    .rulebook(snapshot.file)
                    .unwrap_or_else(|cancelled| analysis::resume_cancelled(cancelled));
                serde_json::json!({
                    "version": snapshot.document.version,
                    "title": book.title,
                    "markdown": book.to_markdown(),
                })
            })
            .await?;
        answer.ok_or_else(|| Error::invalid_params(format!("{} is not open", uri.as_str())))
    }

    /// `ludeme/playMatch`: matches of an open GDL game (its current text) between players of
    /// this process speaking the GGP protocol over loopback, for the editors' "Play a match".
    /// Params: `{"textDocument": {"uri"}, "players"?: ["mcts", "random", ...] (one per role;
    /// by default MCTS in the first seat and random in the others), "matches"?: N (default 2,
    /// the seats rotating), "startClock"?: s, "playClock"?: s (default 2 and 1), "maxSteps"?:
    /// N (default [`EDITOR_MATCH_MAX_STEPS`]; a match still going then is aborted)}`. Answers
    /// `{"summary": Markdown, "records": [...]}` (the records `ludeme match --record` writes).
    pub async fn play_match(&self, params: serde_json::Value) -> Result<serde_json::Value> {
        use ludeme_analysis::play::EngineOptions;
        let uri = document_uri_param(&params)?;
        let game = self
            .query(&uri, |snapshot| {
                let analysis = &snapshot.analysis;
                let text = analysis
                    .match_rules(snapshot.file)
                    .unwrap_or_else(|cancelled| analysis::resume_cancelled(cancelled))?;
                let game = analysis
                    .playable(snapshot.file, &EngineOptions::default())
                    .unwrap_or_else(|cancelled| analysis::resume_cancelled(cancelled))?;
                Ok((text, game))
            })
            .await?
            .ok_or_else(|| Error::invalid_params(format!("{} is not open", uri.as_str())))?;
        let (text, game) = game.map_err(Error::invalid_params::<String>)?;
        // `$/cancelRequest` drops this future; the matches run on a blocking thread that
        // would play on for minutes, so the guard's drop tells them to stop.
        let stop_on_cancel = crate::background::StopOnDrop::default();
        let number = |name: &str, default: u64| params[name].as_u64().unwrap_or(default).min(60);
        let roles = game.roles().len();
        let players: Vec<String> = match params["players"].as_array() {
            Some(names) => names
                .iter()
                .map(|name| name.as_str().unwrap_or_default().to_owned())
                .collect(),
            None => (0..roles)
                .map(|seat| if seat == 0 { "mcts" } else { "random" }.to_owned())
                .collect(),
        };
        if players.len() != roles {
            return Err(Error::invalid_params(format!(
                "{} player(s) given; the game has {roles} role(s)",
                players.len()
            )));
        }
        if let Some(unknown) = players
            .iter()
            .find(|name| !ludeme_analysis::play::PLAYER_NAMES.contains(&name.as_str()))
        {
            return Err(Error::invalid_params(format!(
                "no player is called `{unknown}`"
            )));
        }
        let settings = ludeme_ggp::manager::MatchSettings {
            id: format!("editor.{}", std::process::id()),
            start_clock: number("startClock", 2),
            play_clock: number("playClock", 1).max(1),
            seed: 1,
            // A game without an end within reach would otherwise hold a thread for hours;
            // the editor's matches are a look at the game, not a tournament.
            max_steps: params["maxSteps"]
                .as_u64()
                .map_or(EDITOR_MATCH_MAX_STEPS, |steps| steps as usize)
                .clamp(1, ludeme_ggp::manager::MAX_STEPS),
            game: uri.as_str().to_owned(),
            stop: Some(Arc::clone(&stop_on_cancel.0)),
        };
        let count = number("matches", 2).max(1) as usize;
        let records = tokio::task::spawn_blocking(move || {
            let rules =
                ludeme_ggp::messages::read_terms(&text).map_err(|error| error.to_string())?;
            ludeme_ggp::server::play_local_matches(&game, &rules, &players, &settings, count)
        })
        .await
        .map_err(|_| Error::internal_error())?
        .map_err(Error::invalid_params)?;
        let mut summary = String::new();
        for record in &records {
            let outcome = match &record.goal_values {
                Some(goals) => {
                    let goals: Vec<String> = record
                        .roles
                        .iter()
                        .zip(goals)
                        .map(|(role, goal)| format!("{role} {goal}"))
                        .collect();
                    format!("goals {}", goals.join(", "))
                }
                None => format!(
                    "aborted: {}",
                    record.abort_reason.as_deref().unwrap_or("no reason given")
                ),
            };
            summary.push_str(&format!(
                "- match {}: {} step(s), {outcome}\n",
                record.match_id,
                record.moves.len()
            ));
        }
        summary.push('\n');
        summary.push_str(&ludeme_ggp::manager::summary_table(&records));
        Ok(serde_json::json!({ "summary": summary, "records": records }))
    }

    /// A request that panics, to test that the server survives it (registered only under
    /// [`crate::TEST_PANICS`]).
    pub async fn debug_panic(&self, _params: serde_json::Value) -> Result<serde_json::Value> {
        panic!("ludeme/debugPanic was asked to panic");
    }

    /// A notification that panics (registered only under [`crate::TEST_PANICS`]).
    pub async fn debug_panic_notification(&self, _params: serde_json::Value) {
        panic!("ludeme/debugPanicNotification was asked to panic");
    }

    /// `window/workDoneProgress/cancel`: the cancel button of a cancellable progress.
    pub async fn work_done_progress_cancel(
        &self,
        params: tower_lsp_server::ls_types::WorkDoneProgressCancelParams,
    ) {
        crate::progress::cancel(&params.token);
    }

    /// The session (see [`lock`]).
    fn session(&self) -> MutexGuard<'_, Session> {
        lock(&self.session)
    }

    /// Answers a request about the open document `uri` on a snapshot, off the async runtime;
    /// `None` when the document is not open (or not a game file).
    ///
    /// A write elsewhere (the workspace scan landing, another document's edit, new settings)
    /// cancels every query in flight, though this document's answer is still wanted: the query
    /// runs again on a new snapshot while the document stays at the same version, a few times,
    /// so that a hover asked while the scan lands is answered, not dropped. Only an edit of the
    /// document itself (or writes that keep coming) gives `ContentModified`.
    async fn query<T: Send + 'static>(
        &self,
        uri: &Uri,
        query: impl Fn(&Snapshot) -> T + Clone + Send + std::panic::UnwindSafe + 'static,
    ) -> Result<Option<T>> {
        const ATTEMPTS: usize = 4;
        let mut attempt = 1;
        loop {
            let Some(snapshot) = self.session().snapshot(uri) else {
                return Ok(None);
            };
            let version = snapshot.document.version;
            match run_query(snapshot, query.clone()).await {
                Err(error)
                    if is_content_modified(&error)
                        && attempt < ATTEMPTS
                        && self.session().version(uri) == Some(version) =>
                {
                    attempt += 1;
                }
                answer => return answer.map(Some),
            }
        }
    }

    /// Computes and publishes the diagnostics of `uri` on a blocking thread. Stale results (the
    /// document changed meanwhile) are dropped: the change that made them stale publishes anew.
    /// A computation cancelled while the document stayed as it was (another document was
    /// edited, the workspace scan landed) runs again: nothing else would publish this version.
    async fn publish_diagnostics(&self, uri: Uri) {
        let (version, diagnostics) = loop {
            let Some(snapshot) = self.session().snapshot(&uri) else {
                return;
            };
            let version = snapshot.document.version;
            match run_query(snapshot, findings::static_diagnostics).await {
                Ok(diagnostics) => break (version, diagnostics),
                Err(error)
                    if is_content_modified(&error)
                        && self.publisher.current_version(&uri) == Some(version) =>
                {
                    continue;
                }
                Err(_) => return,
            }
        };
        let Some(round) = self
            .publisher
            .publish_first_round(uri.clone(), version, diagnostics.clone())
            .await
        else {
            return;
        };
        // Random play and the search for duplicates take longer than the static checks: their
        // findings follow in a second publication, from a task of their own so that this
        // notification's handler returns.
        let publisher = self.publisher.clone();
        tokio::spawn(async move {
            findings::publish_slow_findings(publisher, uri, version, round, diagnostics).await;
        });
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
        {
            let mut session = Session::new(encoding);
            session.set_roots(workspace::workspace_roots(&params));
            session.load_settings_file();
            if let Some(options) = &params.initialization_options {
                session.set_client_settings(ClientSettings::from_json(options));
            }
            *self.session() = session;
        }
        *lock(&self.support) = ClientSupport::of(&params);
        self.editor.initialize(&params);
        let position_encoding = match encoding {
            PositionEncoding::Utf8 => PositionEncodingKind::UTF8,
            PositionEncoding::Utf16 => PositionEncodingKind::UTF16,
        };
        let mut capabilities = ServerCapabilities {
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
            workspace_symbol_provider: Some(OneOf::Left(true)),
            semantic_tokens_provider: Some(
                SemanticTokensServerCapabilities::SemanticTokensOptions(SemanticTokensOptions {
                    legend: SemanticTokensLegend {
                        token_types: TOKEN_TYPES.to_vec(),
                        token_modifiers: vec![SemanticTokenModifier::DECLARATION],
                    },
                    full: Some(SemanticTokensFullOptions::Bool(true)),
                    range: None,
                    work_done_progress_options: WorkDoneProgressOptions::default(),
                }),
            ),
            ..ServerCapabilities::default()
        };
        client_options::add_capabilities(&mut capabilities);
        Ok(InitializeResult {
            capabilities,
            server_info: Some(ServerInfo {
                name: "ludeme".to_owned(),
                version: Some(env!("CARGO_PKG_VERSION").to_owned()),
            }),
            offset_encoding: None,
        })
    }

    /// Loads the workspace's games and settings, then asks the client to watch the files.
    async fn initialized(&self, _params: InitializedParams) {
        self.rescan_workspace().await;
        self.register_file_watching().await;
    }

    async fn shutdown(&self) -> Result<()> {
        Ok(())
    }

    async fn did_change_watched_files(&self, params: DidChangeWatchedFilesParams) {
        let mut settings_changed = false;
        let mut games_changed = false;
        {
            let mut session = self.session();
            for event in &params.changes {
                match session.apply_file_change(&event.uri, event.typ) {
                    FileChange::Settings => settings_changed = true,
                    FileChange::Games => games_changed = true,
                    FileChange::Ignored => {}
                }
            }
        }
        if settings_changed {
            self.rescan_workspace().await;
        } else if games_changed {
            self.publish_all_open().await;
            self.refresh_lenses().await;
        }
    }

    async fn did_change_configuration(&self, params: DidChangeConfigurationParams) {
        self.editor.apply_settings(&params.settings);
        self.session()
            .set_client_settings(ClientSettings::from_json(&params.settings));
        // The budgets only shape the lenses: ask for them again.
        self.refresh_lenses().await;
    }

    async fn symbol(
        &self,
        params: WorkspaceSymbolParams,
    ) -> Result<Option<WorkspaceSymbolResponse>> {
        let snapshot = self.session().workspace_snapshot();
        let query = params.query;
        run_cancellable(move || workspace::workspace_symbols(&snapshot, &query, symbol_kind))
            .await
            .map(|symbols| Some(WorkspaceSymbolResponse::Nested(symbols)))
    }

    async fn did_open(&self, params: DidOpenTextDocumentParams) {
        let document = params.text_document;
        let (opened, known_changed) = self.changing_known_games(|session| {
            session.open(
                document.uri.clone(),
                &document.language_id,
                &document.text,
                document.version,
            )
        });
        if opened {
            self.publish_diagnostics(document.uri).await;
        }
        if known_changed {
            self.refresh_lenses().await;
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
        let (closed, known_changed) = self.changing_known_games(|session| session.close(&uri));
        if !closed {
            // Not a game file: its diagnostics (those of `ludeme.toml`) are not the editor's.
            return;
        }
        self.lenses.forget(&uri);
        // Diagnostics of a closed file would linger in the editor's problem list otherwise.
        self.publisher.clear(uri).await;
        if known_changed {
            self.refresh_lenses().await;
        }
    }

    async fn document_symbol(
        &self,
        params: DocumentSymbolParams,
    ) -> Result<Option<DocumentSymbolResponse>> {
        let symbols = self
            .query(&params.text_document.uri, |snapshot| {
                to_lsp_outline(
                    analysis::document_symbols(snapshot.db(), snapshot.file),
                    &snapshot.document,
                )
            })
            .await?;
        Ok(symbols.map(DocumentSymbolResponse::Nested))
    }

    async fn hover(&self, params: HoverParams) -> Result<Option<Hover>> {
        let position = params.text_document_position_params;
        let hover = self
            .query(&position.text_document.uri, move |snapshot| {
                let offset = snapshot.document.offset(position.position);
                let hover = ide::hover(snapshot.db(), snapshot.file, offset)?;
                Some(Hover {
                    contents: HoverContents::Markup(MarkupContent {
                        kind: MarkupKind::Markdown,
                        value: hover.markdown,
                    }),
                    range: Some(snapshot.document.range(hover.range)),
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
        let encoding = self.session().encoding;
        let locations = self
            .query(&position.text_document.uri, move |snapshot| {
                navigation::goto_definition(snapshot, &uri, position.position, encoding)
            })
            .await?;
        Ok(locations
            .filter(|locations| !locations.is_empty())
            .map(GotoDefinitionResponse::Array))
    }

    async fn references(&self, params: ReferenceParams) -> Result<Option<Vec<Location>>> {
        let position = params.text_document_position;
        let include_declaration = params.context.include_declaration;
        let encoding = self.session().encoding;
        self.query(&position.text_document.uri, move |snapshot| {
            navigation::references(snapshot, position.position, include_declaration, encoding)
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
            ide::references(snapshot.db(), snapshot.file, offset)
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
                ide::prepare_rename(snapshot.db(), snapshot.file, offset)
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
        let new_name = params.new_name;
        let encoding = self.session().encoding;
        let answer = self
            .query(&position.text_document.uri, move |snapshot| {
                navigation::rename(snapshot, position.position, &new_name, encoding)
            })
            .await?;
        match answer {
            None => Ok(None),
            Some(Ok(edit)) => Ok(Some(edit)),
            Some(Err(why)) => Err(Error::invalid_params(why)),
        }
    }

    async fn formatting(&self, params: DocumentFormattingParams) -> Result<Option<Vec<TextEdit>>> {
        let edits = self
            .query(&params.text_document.uri, |snapshot| {
                let text = snapshot.file.text(snapshot.db());
                // A file with errors is left as it is: formatting never loses text.
                let formatted = snapshot
                    .analysis
                    .format(snapshot.file, None)
                    .unwrap_or_else(|cancelled| analysis::resume_cancelled(cancelled))
                    .ok()?;
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
            ide::folding_ranges(snapshot.db(), snapshot.file)
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

    /// The lenses above the game (probe, nearest game, bench figure, random play), unresolved:
    /// listing them never waits for the work behind their titles.
    async fn code_lens(&self, params: CodeLensParams) -> Result<Option<Vec<CodeLens>>> {
        self.query(&params.text_document.uri, lenses::list).await
    }

    /// Titles a lens from the work done for the document's current version, or starts that
    /// work in the background and answers with a provisional title (see `lenses.rs`).
    async fn code_lens_resolve(&self, mut lens: CodeLens) -> Result<CodeLens> {
        let (uri, kind) = lenses::lens_target(&lens).map_err(Error::invalid_params)?;
        // Before the snapshot: a snapshot held while waiting would hold back the scan's write.
        if !self.scan_landed_for_lenses().await {
            lens.command = Some(lenses::Resolved::provisional(kind).into_command());
            return Ok(lens);
        }
        let Some(snapshot) = self.session().snapshot(&uri) else {
            lens.command = Some(Command {
                title: "the document is no longer open".to_owned(),
                command: String::new(),
                arguments: None,
            });
            return Ok(lens);
        };
        let support = self.support();
        let context = lenses::JobContext {
            client: self.client.clone(),
            session: self.session.clone(),
            progress: support.progress,
            refresh: support.lens_refresh,
        };
        let resolved = self.lenses.resolve(&context, uri, kind, snapshot).await;
        lens.command = Some(resolved.into_command());
        Ok(lens)
    }

    async fn semantic_tokens_full(
        &self,
        params: SemanticTokensParams,
    ) -> Result<Option<SemanticTokensResult>> {
        let tokens = self
            .query(&params.text_document.uri, |snapshot| {
                encode_semantic_tokens(
                    &ide::semantic_tokens(snapshot.db(), snapshot.file),
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

    async fn completion(&self, params: CompletionParams) -> Result<Option<CompletionResponse>> {
        let position = params.text_document_position;
        let snippets = self
            .editor
            .snippets
            .load(std::sync::atomic::Ordering::Relaxed);
        self.query(&position.text_document.uri, move |snapshot| {
            editing::completion(snapshot, position.position, snippets)
        })
        .await
    }

    async fn signature_help(&self, params: SignatureHelpParams) -> Result<Option<SignatureHelp>> {
        let position = params.text_document_position_params;
        let help = self
            .query(&position.text_document.uri, move |snapshot| {
                editing::signature_help(snapshot, position.position)
            })
            .await?;
        Ok(help.flatten())
    }

    async fn selection_range(
        &self,
        params: SelectionRangeParams,
    ) -> Result<Option<Vec<SelectionRange>>> {
        let positions = params.positions;
        self.query(&params.text_document.uri, move |snapshot| {
            display::selection_ranges(snapshot, &positions)
        })
        .await
    }

    async fn range_formatting(
        &self,
        params: DocumentRangeFormattingParams,
    ) -> Result<Option<Vec<TextEdit>>> {
        let range = params.range;
        let edits = self
            .query(&params.text_document.uri, move |snapshot| {
                editing::range_formatting(snapshot, range)
            })
            .await?;
        Ok(edits.flatten())
    }

    async fn code_action(&self, params: CodeActionParams) -> Result<Option<CodeActionResponse>> {
        let uri = params.text_document.uri;
        let range = params.range;
        let document_uri = uri.clone();
        self.query(&uri, move |snapshot| {
            editing::code_actions(snapshot, &document_uri, range)
        })
        .await
    }

    async fn code_action_resolve(&self, action: CodeAction) -> Result<CodeAction> {
        let Some(uri) = editing::action_uri(&action) else {
            return Ok(action);
        };
        let document_uri = uri.clone();
        let unresolved = action.clone();
        let resolved = self
            .query(&uri, move |snapshot| {
                editing::resolve_conversion(snapshot, &document_uri, action.clone())
            })
            .await?;
        Ok(resolved.unwrap_or(unresolved))
    }

    /// `ludeme.breedVariants` (the "Breed variants of this game" action: `breeding.rs`).
    async fn execute_command(&self, params: ExecuteCommandParams) -> Result<Option<LSPAny>> {
        if params.command != crate::breeding::BREED_COMMAND {
            return Err(Error::invalid_params(format!(
                "no command is called `{}`",
                params.command
            )));
        }
        let argument = params.arguments.first().cloned().unwrap_or_default();
        let snapshot = argument["uri"]
            .as_str()
            .and_then(|uri| uri.parse::<Uri>().ok())
            .and_then(|uri| self.session().snapshot(&uri));
        let progress = self.support().progress;
        crate::breeding::breed(&self.client, progress, snapshot, &argument)
            .await
            .map(Some)
    }

    async fn inlay_hint(&self, params: InlayHintParams) -> Result<Option<Vec<InlayHint>>> {
        let range = params.range;
        let english = self
            .editor
            .english_hints
            .load(std::sync::atomic::Ordering::Relaxed);
        self.query(&params.text_document.uri, move |snapshot| {
            display::inlay_hints(snapshot, range, english)
        })
        .await
    }
}

/// The steps after which an editor's match is aborted unless `maxSteps` says otherwise: enough
/// for most games to end, and at most 200 play clocks of waiting per match.
const EDITOR_MATCH_MAX_STEPS: usize = 200;

/// The `{"textDocument": {"uri": ...}}` of a custom request's parameters.
fn document_uri_param(params: &serde_json::Value) -> Result<Uri> {
    params["textDocument"]["uri"]
        .as_str()
        .and_then(|uri| uri.parse().ok())
        .ok_or_else(|| Error::invalid_params("expected {\"textDocument\": {\"uri\": ...}}"))
}
