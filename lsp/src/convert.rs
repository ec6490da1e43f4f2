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

/// The most symbols one outline (`textDocument/documentSymbol`) lists. A game of the corpora has
/// at most a few thousand; a generated file of megabytes has hundreds of thousands, which no
/// outline view shows usefully, and each costs the protocol layer some kilobytes on its way out
/// (10 MB of GDL gave 158,000 symbols and a gigabyte). Workspace symbol search still finds them.
pub(crate) const MAX_OUTLINE_SYMBOLS: usize = 10_000;

/// The outline of a document: its symbols up to [`MAX_OUTLINE_SYMBOLS`] (children counted),
/// then, when some are left out, one entry that says how many and where they are.
pub(crate) fn to_lsp_outline(
    symbols: &[analysis::DocumentSymbol],
    document: &Document,
) -> Vec<DocumentSymbol> {
    fn count(symbol: &analysis::DocumentSymbol) -> usize {
        1 + symbol.children.iter().map(count).sum::<usize>()
    }
    let mut listed = 0;
    let mut outline = Vec::new();
    for (index, symbol) in symbols.iter().enumerate() {
        let size = count(symbol);
        if listed + size > MAX_OUTLINE_SYMBOLS {
            let rest = &symbols[index..];
            let left_out: usize = rest.iter().map(count).sum();
            let start = rest[0].range.start;
            let end = rest
                .iter()
                .map(|symbol| symbol.range.end)
                .max()
                .unwrap_or(start);
            #[allow(deprecated)] // `deprecated` is a required field of the protocol type
            outline.push(DocumentSymbol {
                name: format!("… {left_out} more symbols"),
                detail: Some(format!(
                    "the outline lists the first {MAX_OUTLINE_SYMBOLS}; workspace symbol search \
                     finds every one"
                )),
                kind: SymbolKind::NAMESPACE,
                tags: None,
                deprecated: None,
                range: document.range(analysis::TextRange::new(start, end)),
                selection_range: document.range(analysis::TextRange::new(start, start)),
                children: None,
            });
            break;
        }
        listed += size;
        outline.push(to_lsp_symbol(symbol, document));
    }
    outline
}

fn to_lsp_symbol(symbol: &analysis::DocumentSymbol, document: &Document) -> DocumentSymbol {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::document::PositionEncoding;

    fn fact(index: usize) -> analysis::DocumentSymbol {
        let range = analysis::TextRange::new(index * 4, index * 4 + 3);
        analysis::DocumentSymbol {
            name: format!("f{index}"),
            detail: None,
            kind: analysis::SymbolKind::Fact,
            range,
            selection_range: range,
            children: Vec::new(),
        }
    }

    #[test]
    fn a_huge_outline_lists_its_first_symbols_and_says_how_many_are_left_out() {
        let total = MAX_OUTLINE_SYMBOLS + 5;
        let text = "(f)\n".repeat(total);
        let document = Document::new(&text, 0, PositionEncoding::Utf16);
        let symbols: Vec<_> = (0..total).map(fact).collect();
        let outline = to_lsp_outline(&symbols, &document);
        assert_eq!(outline.len(), MAX_OUTLINE_SYMBOLS + 1);
        assert_eq!(
            outline[MAX_OUTLINE_SYMBOLS - 1].name,
            format!("f{}", MAX_OUTLINE_SYMBOLS - 1)
        );
        let rest = outline.last().unwrap();
        assert_eq!(rest.name, "… 5 more symbols");
        assert_eq!(
            rest.range.start,
            Position::new(MAX_OUTLINE_SYMBOLS as u32, 0)
        );
        assert_eq!(rest.range.end, Position::new(total as u32 - 1, 3));

        let small = to_lsp_outline(&symbols[..3], &document);
        assert_eq!(small.len(), 3);
    }
}
