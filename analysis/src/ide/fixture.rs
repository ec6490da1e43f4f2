//! What the tests of the editor features share: a database holding one file, a cursor written
//! into the text as `$0`, and the assertions on answers that are long text or refusals.

use std::fmt::Debug;
use std::sync::Arc;

use super::{TokenKind, semantic_tokens};
use crate::{Db, RootDatabase, SourceFile, Syntax};

/// The file `path` of `syntax` holding `text`, in `db`.
pub(super) fn source(db: &RootDatabase, path: &str, syntax: Syntax, text: &str) -> SourceFile {
    SourceFile::new(db, path.into(), syntax, Arc::from(text), None)
}

/// The text without its `$0` marker, and the marker's offset.
pub(super) fn marked(text: &str) -> (String, usize) {
    let offset = text.find("$0").expect("a $0 marker");
    (text.replace("$0", ""), offset)
}

/// A database holding `text`, its `$0` marker removed, as the file `path`: the database, the
/// file, the marker's offset and the text the file holds.
pub(super) fn fixture(
    path: &str,
    syntax: Syntax,
    text: &str,
) -> (RootDatabase, SourceFile, usize, String) {
    let (text, offset) = marked(text);
    let db = RootDatabase::default();
    let file = source(&db, path, syntax, &text);
    (db, file, offset, text)
}

/// Asserts that `outcome` is a refusal whose reason mentions `reason`.
#[track_caller]
pub(super) fn assert_refused<T: Debug>(outcome: Result<T, String>, reason: &str) {
    match outcome {
        Err(message) => assert!(message.contains(reason), "{message:?} lacks {reason:?}"),
        Ok(answer) => panic!("expected a refusal mentioning {reason:?}, got {answer:?}"),
    }
}

/// Asserts that `markdown` (a hover) contains `expected`, showing all of it otherwise.
#[track_caller]
pub(super) fn assert_mentions(markdown: &str, expected: &str) {
    assert!(
        markdown.contains(expected),
        "{expected:?} is not in:\n{markdown}"
    );
}

/// The file's semantic tokens as the words they cover, with their kind and whether each is a
/// definition.
pub(super) fn spelled_tokens<'t>(
    db: &dyn Db,
    file: SourceFile,
    text: &'t str,
) -> Vec<(&'t str, TokenKind, bool)> {
    semantic_tokens(db, file)
        .iter()
        .map(|token| {
            (
                &text[token.range.start..token.range.end],
                token.kind,
                token.definition,
            )
        })
        .collect()
}
