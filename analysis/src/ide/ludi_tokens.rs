//! Semantic tokens for Ludi, read off the tree bound to the schema: what a word is depends on
//! where it stands (`square` is a tiling there, `Stone` a piece type here), which the grammar
//! alone cannot tell.

use super::ludi::name_sites;
use super::{SemanticToken, TokenKind};
use crate::ludi::bind::{Node, Value};
use crate::ludi::ludi_tree;
use crate::ludi::schema::{Form, Namespace};
use crate::{Db, SourceFile};

/// Ludemes as functions, piece types as types, the other names a game declares (players,
/// regions, flags, advisors, the game's own name) as constants, numbers as numbers; names are
/// marked as definitions where they are declared. Words the schema does not know are left to
/// the grammar's colours.
pub fn semantic_tokens(db: &dyn Db, file: SourceFile) -> Vec<SemanticToken> {
    let Some(game) = ludi_tree(db, file).game.as_ref() else {
        return Vec::new();
    };
    let mut tokens: Vec<SemanticToken> = name_sites(db, file)
        .into_iter()
        .map(|site| SemanticToken {
            range: site.range,
            kind: match site.namespace {
                Namespace::Piece => TokenKind::Type,
                Namespace::Game
                | Namespace::Player
                | Namespace::Region
                | Namespace::Flag
                | Namespace::Advisor => TokenKind::Constant,
            },
            definition: site.declares,
        })
        .collect();
    game.walk(&mut |node: &Node| {
        // A record's head is a name (`(White N)`), already among the name sites.
        if !matches!(node.ludeme().form, Form::Record { .. }) {
            tokens.push(SemanticToken {
                range: node.name_range,
                kind: TokenKind::Function,
                definition: false,
            });
        }
        for arg in &node.args {
            if let Value::Integer { range, .. } | Value::Number { range, .. } = &arg.value {
                tokens.push(SemanticToken {
                    range: *range,
                    kind: TokenKind::Number,
                    definition: false,
                });
            }
        }
    });
    tokens.sort_by_key(|token| (token.range.start, token.range.end));
    // One token per place: a word read both as a ludeme and a name keeps its first reading.
    tokens.dedup_by_key(|token| token.range);
    tokens
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Syntax;
    use crate::ide::fixture::fixture;

    #[test]
    fn ludemes_names_and_numbers_are_told_apart() {
        let (db, file, _, text) = fixture(
            "t.ludi",
            Syntax::Ludi,
            "(game T (players White Black) (board (tiling square) (size 3 3)) (pieces (Stone All)) (end (White win (in-a-row 3))))$0",
        );
        let tokens: Vec<(&str, TokenKind, bool)> =
            super::super::fixture::spelled_tokens(&db, file, &text);
        let of = |word: &str| -> Vec<(TokenKind, bool)> {
            tokens
                .iter()
                .filter(|(text, _, _)| *text == word)
                .map(|(_, kind, definition)| (*kind, *definition))
                .collect()
        };
        assert_eq!(of("game"), [(TokenKind::Function, false)]);
        assert_eq!(of("in-a-row"), [(TokenKind::Function, false)]);
        assert_eq!(of("square"), [(TokenKind::Function, false)]);
        // Declared in `players`, used in the end clause.
        assert_eq!(
            of("White"),
            [(TokenKind::Constant, true), (TokenKind::Constant, false)]
        );
        assert_eq!(of("Stone"), [(TokenKind::Type, true)]);
        assert_eq!(of("3"), [(TokenKind::Number, false); 3]);
        // `All` is a word of Ludi (every player), not a name of this game.
        assert!(of("All").is_empty(), "{tokens:?}");
        let starts: Vec<usize> = semantic_tokens(&db, file)
            .iter()
            .map(|token| token.range.start)
            .collect();
        assert!(starts.is_sorted(), "sorted for the protocol's encoding");
    }
}
