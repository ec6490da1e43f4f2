//! Document symbols: the outline of a file (statements, ludemes, rules), for the editor's outline
//! view and breadcrumbs.

use tree_sitter::Node;

use crate::syntax::kif_forms::{FormKind, Forms};
use crate::{Db, SourceFile, Syntax, TextRange, kif_forms_read, parse};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SymbolKind {
    /// A whole game (`(game Yavalath ...)`, `game is poker`).
    Game,
    /// A ludeme or a statement that declares part of the game.
    Ludeme,
    /// A definition: an EGGG `X is ...`/`X means ...`, a GDL rule.
    Definition,
    /// A fact: a GDL ground sentence.
    Fact,
    /// An `X is like Y` inheritance.
    Inheritance,
    /// An EGGG assertion.
    Assertion,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct DocumentSymbol {
    pub name: String,
    pub detail: Option<String>,
    pub kind: SymbolKind,
    /// The whole item.
    pub range: TextRange,
    /// The part to select when the symbol is picked (its name).
    pub selection_range: TextRange,
    pub children: Vec<DocumentSymbol>,
}

/// How long a symbol name may be before it is shortened.
const NAME_LIMIT: usize = 60;
/// How deep the Ludi outline goes (game → board → tiling).
const LUDI_OUTLINE_DEPTH: usize = 3;

#[salsa::tracked(returns(ref))]
pub fn document_symbols(db: &dyn Db, file: SourceFile) -> Vec<DocumentSymbol> {
    let text = file.text(db);
    if let Some(forms) = kif_forms_read(db, file) {
        // A clean KIF file's outline comes off the forms the checks read anyway: a tree-sitter
        // tree of a file of megabytes takes seconds and about a hundred times the text.
        return kif_symbols(forms, text);
    }
    symbols_of_tree(parse(db, file).root(), file.syntax(db), text)
}

/// The outline read off a syntax tree.
fn symbols_of_tree(root: Node<'_>, syntax: Syntax, text: &str) -> Vec<DocumentSymbol> {
    let mut cursor = root.walk();
    let items = root
        .named_children(&mut cursor)
        .filter(|node| !node.is_extra() && !node.is_error() && !node.is_missing());
    match syntax {
        Syntax::Egg => items.filter_map(|node| egg_symbol(node, text)).collect(),
        Syntax::Ludi => items
            .filter_map(|node| ludi_symbol(node, text, LUDI_OUTLINE_DEPTH))
            .collect(),
        Syntax::GdlKif | Syntax::GdlInfix => {
            items.filter_map(|node| gdl_symbol(node, text)).collect()
        }
    }
}

fn range_of(node: Node<'_>) -> TextRange {
    TextRange::new(node.start_byte(), node.end_byte())
}

fn text_of<'t>(node: Node<'_>, text: &'t str) -> &'t str {
    text.get(node.byte_range()).unwrap_or_default()
}

/// `text` on one line with runs of blank space collapsed, shortened to [`NAME_LIMIT`].
fn one_line(text: &str) -> String {
    let mut line = String::with_capacity(text.len().min(NAME_LIMIT + 4));
    for (count, word) in text.split_whitespace().enumerate() {
        if count > 0 {
            line.push(' ');
        }
        line.push_str(word);
        if line.chars().count() > NAME_LIMIT {
            line = line.chars().take(NAME_LIMIT).collect();
            line.push('…');
            break;
        }
    }
    line
}

fn symbol(name: String, kind: SymbolKind, node: Node<'_>, name_node: Node<'_>) -> DocumentSymbol {
    DocumentSymbol {
        name,
        detail: None,
        kind,
        range: range_of(node),
        selection_range: range_of(name_node),
        children: Vec::new(),
    }
}

fn egg_symbol(node: Node<'_>, text: &str) -> Option<DocumentSymbol> {
    let kind = match node.kind() {
        "like_statement" => SymbolKind::Inheritance,
        "assert_statement" => SymbolKind::Assertion,
        "definition" | "code_statement" => SymbolKind::Definition,
        "statement" => SymbolKind::Ludeme,
        _ => return None,
    };
    let name_node = node.child_by_field_name("name").unwrap_or(node);
    let mut result = symbol(one_line(text_of(node, text)), kind, node, name_node);
    if node.kind() == "statement" && one_line(text_of(node, text)).starts_with("game is ") {
        result.kind = SymbolKind::Game;
    }
    Some(result)
}

fn ludi_symbol(node: Node<'_>, text: &str, depth: usize) -> Option<DocumentSymbol> {
    if node.kind() != "list" || depth == 0 {
        return None;
    }
    let head = node.child_by_field_name("head")?;
    let head_text = text_of(head, text);
    let mut cursor = node.walk();
    let arguments: Vec<Node<'_>> = node
        .named_children(&mut cursor)
        .filter(|child| !child.is_extra() && child.id() != head.id())
        .collect();
    let first_atom = arguments.first().filter(|arg| arg.kind() != "list");
    let (name, name_node, kind) = match (head_text, first_atom) {
        ("game", Some(&game_name)) => (
            text_of(game_name, text).to_owned(),
            game_name,
            SymbolKind::Game,
        ),
        _ => (head_text.to_owned(), head, SymbolKind::Ludeme),
    };
    let mut result = symbol(name, kind, node, name_node);
    let atoms: Vec<&str> = arguments
        .iter()
        .filter(|arg| {
            arg.kind() != "list" && Some(*arg) != first_atom.filter(|_| kind == SymbolKind::Game)
        })
        .map(|arg| text_of(*arg, text))
        .collect();
    if !atoms.is_empty() {
        result.detail = Some(one_line(&atoms.join(" ")));
    }
    result.children = arguments
        .iter()
        .filter_map(|&child| ludi_symbol(child, text, depth - 1))
        .collect();
    Some(result)
}

/// The outline of a KIF file from its forms: the same symbols [`gdl_symbol`] reads off the tree
/// (a rule by its head, a top-level list or constant as a fact; numbers and variables are none).
fn kif_symbols(forms: &Forms, text: &str) -> Vec<DocumentSymbol> {
    let text_at = |range: TextRange| text.get(std::ops::Range::from(range)).unwrap_or_default();
    forms
        .top_level()
        .iter()
        .filter_map(|&id| {
            let form = forms.get(id);
            let (sentence, kind, detail) = match form.kind {
                FormKind::Rule => (
                    forms.get(*forms.elements(id).first()?).range,
                    SymbolKind::Definition,
                    Some("rule".to_owned()),
                ),
                FormKind::List | FormKind::Constant => (form.range, SymbolKind::Fact, None),
                FormKind::Number | FormKind::Variable => return None,
            };
            Some(DocumentSymbol {
                name: one_line(text_at(sentence)),
                detail,
                kind,
                range: form.range,
                selection_range: sentence,
                children: Vec::new(),
            })
        })
        .collect()
}

fn gdl_symbol(node: Node<'_>, text: &str) -> Option<DocumentSymbol> {
    let (sentence, kind) = match node.kind() {
        "rule" => (node.child_by_field_name("head")?, SymbolKind::Definition),
        "fact" => (
            node.child_by_field_name("sentence").unwrap_or(node),
            SymbolKind::Fact,
        ),
        "list" => (node, SymbolKind::Fact),
        "constant" => (node, SymbolKind::Fact),
        _ => return None,
    };
    let mut result = symbol(one_line(text_of(sentence, text)), kind, node, sentence);
    if kind == SymbolKind::Definition {
        result.detail = Some("rule".to_owned());
    }
    Some(result)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every clean KIF game of the project's corpus (and of the shared corpus beside the clone,
    /// when there is one) has the same outline from the fast reader's forms as from the tree.
    #[test]
    fn the_outline_of_clean_kif_is_the_same_from_forms_and_from_the_tree() {
        crate::test_files::compare_on_clean_kif_games(|path, text, forms, root| {
            assert_eq!(
                kif_symbols(forms, text),
                symbols_of_tree(root, Syntax::GdlKif, text),
                "{}",
                path.display()
            );
        });
    }
}
