//! Conversions of the analyses' answers into the protocol's types: diagnostics, symbols and
//! semantic tokens (positions through the open document's [`Document`]).

use ludeme_analysis as analysis;
use ludeme_analysis::ide;
use tower_lsp_server::ls_types::*;

use crate::document::Document;

pub(crate) fn to_lsp_diagnostic(
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

/// The protocol's kind of a symbol, for document and workspace symbols alike.
pub(crate) fn symbol_kind(kind: analysis::SymbolKind) -> SymbolKind {
    match kind {
        analysis::SymbolKind::Game => SymbolKind::MODULE,
        analysis::SymbolKind::Ludeme => SymbolKind::PROPERTY,
        analysis::SymbolKind::Definition => SymbolKind::FUNCTION,
        analysis::SymbolKind::Fact => SymbolKind::CONSTANT,
        analysis::SymbolKind::Inheritance => SymbolKind::CLASS,
        analysis::SymbolKind::Assertion => SymbolKind::EVENT,
    }
}

pub(crate) fn to_lsp_symbol(
    symbol: &analysis::DocumentSymbol,
    document: &Document,
) -> DocumentSymbol {
    let kind = symbol_kind(symbol.kind);
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
pub(crate) const TOKEN_TYPES: [SemanticTokenType; 6] = [
    SemanticTokenType::KEYWORD,
    SemanticTokenType::FUNCTION,
    SemanticTokenType::TYPE,
    SemanticTokenType::ENUM_MEMBER,
    SemanticTokenType::VARIABLE,
    SemanticTokenType::NUMBER,
];

pub(crate) fn token_type_index(kind: ide::TokenKind) -> u32 {
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
pub(crate) fn encode_semantic_tokens(
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
