//! Source files: the salsa input, the language of a file, and decoding bytes into text.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::syntax::EditedTree;
use crate::{Diagnostic, TextRange, rules};

/// The syntax a file is written in. GDL has two syntaxes over one language.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Syntax {
    /// EGGG statements (`.egg`).
    Egg,
    /// Ludi ludeme trees (`.ludi`).
    Ludi,
    /// Stanford GDL in prefix KIF (`.kif`, and `.gdl` whose first form is a `(`).
    GdlKif,
    /// Stanford GDL in the infix Gamemaster form (`.hrf`, and other `.gdl` files).
    GdlInfix,
}

/// File extensions (without the dot) that hold game descriptions.
pub const GAME_FILE_EXTENSIONS: &[&str] = &["egg", "ludi", "kif", "gdl", "hrf"];

impl Syntax {
    pub const ALL: [Syntax; 4] = [Syntax::Egg, Syntax::Ludi, Syntax::GdlKif, Syntax::GdlInfix];

    /// The syntax of a file, from its extension; `.gdl` files are sniffed: prefix KIF when the
    /// first thing after comments and blank space is a `(`, infix otherwise.
    pub fn detect(path: &Path, text: &str) -> Option<Syntax> {
        let extension = path.extension()?.to_str()?.to_ascii_lowercase();
        match extension.as_str() {
            "egg" => Some(Syntax::Egg),
            "ludi" => Some(Syntax::Ludi),
            "kif" => Some(Syntax::GdlKif),
            "hrf" => Some(Syntax::GdlInfix),
            "gdl" => Some(Self::sniff_gdl(text)),
            _ => None,
        }
    }

    fn sniff_gdl(text: &str) -> Syntax {
        let mut rest = text;
        loop {
            rest = rest.trim_start();
            if rest.starts_with(';') || rest.starts_with('%') {
                rest = rest.split_once('\n').map_or("", |(_, after)| after);
            } else {
                break;
            }
        }
        if rest.is_empty() || rest.starts_with('(') {
            Syntax::GdlKif
        } else {
            Syntax::GdlInfix
        }
    }

    /// The language id editors use (`languageId` in LSP, the VS Code language contribution).
    pub fn language_id(self) -> &'static str {
        match self {
            Syntax::Egg => "egg",
            Syntax::Ludi => "ludi",
            Syntax::GdlKif => "gdl",
            Syntax::GdlInfix => "hrf",
        }
    }

    /// The syntax an editor's `languageId` names, if it is one of ours.
    pub fn from_language_id(id: &str) -> Option<Syntax> {
        Self::ALL
            .into_iter()
            .find(|syntax| syntax.language_id() == id)
    }

    pub fn display_name(self) -> &'static str {
        match self {
            Syntax::Egg => "EGGG",
            Syntax::Ludi => "Ludi GDL",
            Syntax::GdlKif => "GDL (KIF)",
            Syntax::GdlInfix => "GDL (infix)",
        }
    }

    /// A parser for this syntax without error recovery that gives the same tree as
    /// [`Syntax::tree_sitter_language`] for text without syntax errors, and parses faster.
    pub fn fast_tree_sitter_language(self) -> Option<tree_sitter::Language> {
        match self {
            Syntax::GdlKif => Some(tree_sitter_gdl::LANGUAGE_KIF_FAST.into()),
            Syntax::Egg | Syntax::Ludi | Syntax::GdlInfix => None,
        }
    }

    pub fn tree_sitter_language(self) -> tree_sitter::Language {
        match self {
            Syntax::Egg => tree_sitter_egg::LANGUAGE.into(),
            Syntax::Ludi => tree_sitter_ludi::LANGUAGE.into(),
            Syntax::GdlKif => tree_sitter_gdl::LANGUAGE_KIF.into(),
            Syntax::GdlInfix => tree_sitter_gdl::LANGUAGE_INFIX.into(),
        }
    }
}

/// A game file known to the database. Its text is set by the front end (read from disk by the
/// CLI, kept in sync with the editor by the language server).
#[salsa::input(debug)]
pub struct SourceFile {
    #[returns(ref)]
    pub path: PathBuf,
    #[returns(copy)]
    pub syntax: Syntax,
    #[returns(ref)]
    pub text: Arc<str>,
    /// The previous syntax tree with the latest edits applied to it, when the front end knows
    /// them (the language server does): it lets tree-sitter re-parse only what changed. It is a
    /// hint only; [`crate::parse`] gives the same tree without it.
    #[returns(ref)]
    pub edited_tree: Option<EditedTree>,
}

/// Why the bytes of a file are not a text to analyse.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LoadError {
    /// The bytes are not UTF-8; the offset of the first bad byte, and its line and column.
    InvalidUtf8 { offset: usize },
    /// The bytes contain NUL: a binary file.
    Binary { offset: usize },
}

impl LoadError {
    /// The diagnostic to report for this file. Its range points into the bytes' valid prefix.
    pub fn diagnostic(&self) -> Diagnostic {
        match *self {
            LoadError::InvalidUtf8 { offset } => Diagnostic::new(
                &rules::INVALID_UTF8,
                TextRange::empty(offset),
                format!(
                    "the file is not valid UTF-8: byte {offset} starts an invalid sequence; re-save the file as UTF-8"
                ),
            ),
            LoadError::Binary { offset } => Diagnostic::new(
                &rules::BINARY_FILE,
                TextRange::empty(offset),
                format!(
                    "the file holds binary data (a NUL byte at offset {offset}), not a game description"
                ),
            ),
        }
    }

    /// The text before the problem: what can still be shown as the diagnostic's context.
    pub fn valid_prefix<'a>(&self, bytes: &'a [u8]) -> &'a str {
        let offset = match *self {
            LoadError::InvalidUtf8 { offset } | LoadError::Binary { offset } => offset,
        };
        // The prefix before the first invalid byte is valid UTF-8; before a NUL it may not be.
        match std::str::from_utf8(&bytes[..offset]) {
            Ok(text) => text,
            Err(error) => std::str::from_utf8(&bytes[..error.valid_up_to()]).unwrap_or_default(),
        }
    }
}

/// Turns a file's bytes into text, refusing binary data and invalid UTF-8. A leading byte-order
/// mark is kept (tree-sitter treats it as whitespace-free text, and offsets stay those of the file).
pub fn decode_source(bytes: &[u8]) -> Result<&str, LoadError> {
    if let Some(offset) = bytes.iter().position(|&b| b == 0) {
        return Err(LoadError::Binary { offset });
    }
    std::str::from_utf8(bytes).map_err(|error| LoadError::InvalidUtf8 {
        offset: error.valid_up_to(),
    })
}

/// The text of the file at `path`, read as the project's files are ([`decode_source`]); the
/// error is the reason, without the path, for the caller to place.
pub(crate) fn read_text_file(path: &Path) -> Result<String, String> {
    let bytes = std::fs::read(path).map_err(|error| format!("cannot read it: {error}"))?;
    decode_source(&bytes)
        .map(str::to_owned)
        .map_err(|error| error.diagnostic().message)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn syntax_from_extension() {
        let detect = |name: &str, text: &str| Syntax::detect(Path::new(name), text);
        assert_eq!(detect("poker.egg", ""), Some(Syntax::Egg));
        assert_eq!(detect("Yavalath.LUDI", ""), Some(Syntax::Ludi));
        assert_eq!(detect("ttt.kif", "role(x)"), Some(Syntax::GdlKif));
        assert_eq!(detect("ttt.hrf", "(role x)"), Some(Syntax::GdlInfix));
        assert_eq!(detect("notes.txt", ""), None);
        assert_eq!(detect("Makefile", ""), None);
    }

    #[test]
    fn gdl_files_are_sniffed_past_comments() {
        let detect = |text: &str| Syntax::detect(Path::new("game.gdl"), text);
        assert_eq!(
            detect("; tic-tac-toe\n\n(role xplayer)"),
            Some(Syntax::GdlKif)
        );
        assert_eq!(detect("% tic-tac-toe\nrole(x)\n"), Some(Syntax::GdlInfix));
        assert_eq!(detect("   role(x)"), Some(Syntax::GdlInfix));
        assert_eq!(detect(""), Some(Syntax::GdlKif));
    }

    #[test]
    fn decoding_rejects_binary_and_bad_utf8() {
        assert_eq!(decode_source(b"(role x)"), Ok("(role x)"));
        assert_eq!(
            decode_source(b"ab\0cd"),
            Err(LoadError::Binary { offset: 2 })
        );
        let bytes = b"(role \xe9x)";
        let error = decode_source(bytes).unwrap_err();
        assert_eq!(error, LoadError::InvalidUtf8 { offset: 6 });
        assert_eq!(error.valid_prefix(bytes), "(role ");
    }
}
