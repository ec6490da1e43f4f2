//! Selection ranges for every language: from the token at the cursor out through the syntax
//! tree's enclosing nodes (a name, its list, the rule, the file), each strictly larger than the
//! last.

use crate::{Db, SourceFile, TextRange, parse};

/// For each offset, the ranges an editor's "expand selection" steps through, innermost first.
pub fn selection_ranges(db: &dyn Db, file: SourceFile, offsets: &[usize]) -> Vec<Vec<TextRange>> {
    let parse = parse(db, file);
    let root = parse.root();
    offsets
        .iter()
        .map(|&offset| {
            let mut chain: Vec<TextRange> = Vec::new();
            let mut node = root.descendant_for_byte_range(offset, offset);
            while let Some(current) = node {
                let range = TextRange::new(current.start_byte(), current.end_byte());
                let grows = chain
                    .last()
                    .is_none_or(|last| range.len() > last.len() && range.start <= last.start);
                if !range.is_empty() && grows {
                    chain.push(range);
                }
                node = current.parent();
            }
            chain
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ide::fixture::source;
    use crate::{RootDatabase, Syntax};

    fn texts(text: &str, syntax: Syntax, cursor: &str) -> Vec<String> {
        let db = RootDatabase::default();
        let file = source(&db, "t", syntax, text);
        let offset = text.find(cursor).expect("the cursor text") + 1;
        selection_ranges(&db, file, &[offset])
            .remove(0)
            .into_iter()
            .map(|range| text[range.start..range.end].to_owned())
            .collect()
    }

    #[test]
    fn kif_steps_out_from_the_name_to_the_file() {
        let text = "(role x)\n(<= (legal ?p noop) (true (control ?p)))\n";
        assert_eq!(
            texts(text, Syntax::GdlKif, "control"),
            [
                "control",
                "(control ?p)",
                "(true (control ?p))",
                "(<= (legal ?p noop) (true (control ?p)))",
                text,
            ]
        );
    }

    #[test]
    fn ludi_egg_and_infix_have_selection_ranges_too() {
        let ludi = texts(
            "(game T (players A B) (end (All win (in-a-row 3))))",
            Syntax::Ludi,
            "in-a-row",
        );
        assert_eq!(ludi[0], "in-a-row");
        assert_eq!(ludi[1], "(in-a-row 3)");
        assert_eq!(
            ludi.last().unwrap(),
            "(game T (players A B) (end (All win (in-a-row 3))))"
        );
        let egg = texts("game is chess\n2 players\n", Syntax::Egg, "players");
        assert_eq!(egg[0], "players");
        assert_eq!(egg[1], "2 players");
        let infix = texts(
            "role(x)\nterminal :- true(done)\n",
            Syntax::GdlInfix,
            "done",
        );
        assert_eq!(infix[0], "done");
        assert!(
            infix.contains(&"terminal :- true(done)".to_owned()),
            "{infix:?}"
        );
    }
}
