//! The server's state between messages: the analysis host and the open documents.
//!
//! Plain synchronous code, so that the edit logic is tested without a protocol in between.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;

use ludeme_analysis::{AnalysisHost, EditedTree, RootDatabase, SourceFile, Syntax, parse};
use tower_lsp_server::ls_types::{TextDocumentContentChangeEvent, Uri};

use crate::document::{Document, PositionEncoding};

#[derive(Default)]
pub struct Session {
    host: AnalysisHost,
    documents: HashMap<Uri, OpenDocument>,
    pub encoding: PositionEncoding,
}

struct OpenDocument {
    document: Document,
    file: SourceFile,
    key: PathBuf,
}

/// What a request needs to answer off the protocol thread: a database snapshot, the file and the
/// text it was computed from (for position conversions).
pub struct Snapshot {
    pub db: RootDatabase,
    pub file: SourceFile,
    pub document: Document,
}

impl Session {
    pub fn new(encoding: PositionEncoding) -> Self {
        Self {
            encoding,
            ..Self::default()
        }
    }

    /// Opens a document. Returns `false` when it is not a game file the server understands.
    pub fn open(&mut self, uri: Uri, language_id: &str, text: &str, version: i32) -> bool {
        let key = file_key(&uri);
        let Some(syntax) =
            Syntax::detect(&key, text).or_else(|| Syntax::from_language_id(language_id))
        else {
            return false;
        };
        let file = self.host.set_file(&key, syntax, Arc::from(text), None);
        let document = Document::new(text, version, self.encoding);
        self.documents.insert(
            uri,
            OpenDocument {
                document,
                file,
                key,
            },
        );
        true
    }

    /// Applies the changes of one `didChange`, in order, to the text and to the last syntax tree.
    /// Returns `false` for a document that is not open.
    pub fn change(
        &mut self,
        uri: &Uri,
        version: i32,
        changes: &[TextDocumentContentChangeEvent],
    ) -> bool {
        let Some(open) = self.documents.get_mut(uri) else {
            return false;
        };
        let mut edited_tree = EditedTree::new(parse(self.host.db(), open.file));
        for change in changes {
            let edit = open.document.apply_change(change.range, &change.text);
            edited_tree.edit(&edit);
        }
        open.document.version = version;
        let syntax = open.file.syntax(self.host.db());
        let text: Arc<str> = Arc::from(open.document.text());
        self.host
            .set_file(&open.key, syntax, text, Some(edited_tree));
        true
    }

    pub fn close(&mut self, uri: &Uri) {
        if let Some(open) = self.documents.remove(uri) {
            self.host.remove_file(&open.key);
        }
    }

    pub fn snapshot(&self, uri: &Uri) -> Option<Snapshot> {
        let open = self.documents.get(uri)?;
        Some(Snapshot {
            db: self.host.snapshot(),
            file: open.file,
            document: open.document.clone(),
        })
    }

    pub fn version(&self, uri: &Uri) -> Option<i32> {
        self.documents.get(uri).map(|open| open.document.version)
    }
}

/// The analysis key of a document: its path for `file:` URIs, else the URI text.
fn file_key(uri: &Uri) -> PathBuf {
    uri.to_file_path()
        .map(|path| path.into_owned())
        .unwrap_or_else(|| PathBuf::from(uri.as_str()))
}
