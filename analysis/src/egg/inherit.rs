//! `X is like Y`: following a file's bases through the workspace, and building the game with the
//! bases' statements first and each later statement overriding what it replaces.
//!
//! The chain is followed with a loop, not with recursive queries, so that a cycle (`A is like B`,
//! `B is like A`) is a finding to report rather than a salsa cycle, and a long chain costs no
//! stack. Each step reads only the per-file [`egg_file`] of the next base, so editing one file
//! of a chain re-lowers that file alone.

use std::collections::HashSet;
use std::hash::Hash;

use crate::egg::lower::egg_file;
use crate::egg::model::{
    Ancestor, EggGame, Origin, Sourced, Statement, StatementKind, Term, Value, Word,
};
use crate::egg::words::key;
use crate::egg::workspace::{egg_workspace, resolve_base};
use crate::{Db, SourceFile, TextRange};

/// A file and its bases, nearest first, as far as they resolve.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Lineage {
    /// The file itself first, then each base.
    pub links: Vec<Link>,
    pub problem: Option<LineageProblem>,
}

/// One file of a lineage, and the name it was found by.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Link {
    pub file: SourceFile,
    /// The name the previous file used for it; the file's own title for the first link.
    pub name: String,
}

/// Why a lineage stops before a game with no `is like`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum LineageProblem {
    /// The front end has not said which files exist (no [`crate::project::Project`]), so no
    /// base can be looked for; nothing is reported, since nothing is known to be wrong.
    NoWorkspace,
    /// `file` says it is like `base`, and no workspace file has that name.
    Unresolved { file: SourceFile, base: Word },
    /// The `is like` statement at `closing` in `file` leads back to `links[back_to]`.
    Cycle {
        file: SourceFile,
        closing: TextRange,
        back_to: usize,
    },
}

impl Lineage {
    /// Whether the whole chain resolved: the game has every statement its bases give it.
    pub fn is_complete(&self) -> bool {
        self.problem.is_none()
    }
}

/// The lineage of `file`.
#[salsa::tracked(returns(ref))]
pub fn egg_lineage(db: &dyn Db, file: SourceFile) -> Lineage {
    let mut links = vec![Link {
        file,
        name: title(db, file),
    }];
    // A chain longer than the workspace has files must loop; the bound keeps the loop finite
    // whatever `resolve_base` returns.
    let workspace = egg_workspace(db);
    let limit = workspace.as_ref().map_or(0, Vec::len) + 1;
    let mut current = file;
    while links.len() <= limit {
        let Some((_, base, statement)) = egg_file(db, current).likes().next() else {
            return Lineage {
                links,
                problem: None,
            };
        };
        if workspace.is_none() {
            return Lineage {
                links,
                problem: Some(LineageProblem::NoWorkspace),
            };
        }
        let Some(next) = resolve_base(db, current, &base.text) else {
            return Lineage {
                links,
                problem: Some(LineageProblem::Unresolved {
                    file: current,
                    base: base.clone(),
                }),
            };
        };
        if let Some(back_to) = links.iter().position(|link| link.file == next) {
            return Lineage {
                links,
                problem: Some(LineageProblem::Cycle {
                    file: current,
                    closing: statement,
                    back_to,
                }),
            };
        }
        links.push(Link {
            file: next,
            name: base.text.clone(),
        });
        current = next;
    }
    Lineage {
        links,
        problem: None,
    }
}

/// A file's title: its declared name, or its file stem.
pub fn title(db: &dyn Db, file: SourceFile) -> String {
    egg_file(db, file).declared_name().map_or_else(
        || {
            file.path(db)
                .file_stem()
                .and_then(|s| s.to_str())
                .unwrap_or("game")
                .to_owned()
        },
        |name| name.text.clone(),
    )
}

/// The game `file` describes: its bases' statements, then its own.
#[salsa::tracked(returns(ref))]
pub fn egg_game(db: &dyn Db, file: SourceFile) -> EggGame {
    let lineage = egg_lineage(db, file);
    let mut game = EggGame {
        title: title(db, file),
        ancestors: lineage.links[1..]
            .iter()
            .map(|link| Ancestor {
                name: link.name.clone(),
                file: link.file,
            })
            .collect(),
        ..EggGame::default()
    };
    for link in lineage.links.iter().rev() {
        apply(&mut game, link.file, &egg_file(db, link.file).statements);
    }
    game.implied_opponent = first_opponent(&game);
    game
}

/// Applies one file's statements over what its bases said.
fn apply(game: &mut EggGame, file: SourceFile, statements: &[Statement]) {
    let own_rule_keys: Vec<&str> = statements
        .iter()
        .filter_map(|s| match &s.kind {
            StatementKind::Rule(rule) => Some(rule.key.as_str()),
            _ => None,
        })
        .collect();
    // A rule of this file replaces the bases' rules with its subject and verb; rules of one
    // file never replace each other.
    game.rules
        .retain(|rule| !own_rule_keys.contains(&rule.value.key.as_str()));
    // A definition replaces the earlier ones of its name and slot, an assertion those of its
    // name: gathered here, merged after the loop (see `supersede`).
    let (mut own_definitions, mut own_assertions) = (Vec::new(), Vec::new());
    for statement in statements {
        let origin = Origin {
            file,
            range: statement.range,
        };
        match &statement.kind {
            StatementKind::GameName(_) | StatementKind::Like { .. } => {}
            StatementKind::Players(players) => game.players = at(players.clone(), origin),
            StatementKind::Turns(turns) => {
                game.turns = Some(Sourced {
                    value: *turns,
                    origin,
                });
            }
            StatementKind::Moves(moves) => game.moves = at(moves.clone(), origin),
            StatementKind::Pieces(pieces) => game.pieces = at(pieces.clone(), origin),
            StatementKind::Grid(sizes) => {
                game.grid = Some(Sourced {
                    value: sizes.clone(),
                    origin,
                });
            }
            StatementKind::BoardShape(shape) => game.board_shape = at(shape.clone(), origin),
            StatementKind::CellShape(shape) => game.cell_shape = at(shape.clone(), origin),
            StatementKind::BoardStart(rows) => {
                game.board_start = Some(Sourced {
                    value: rows.clone(),
                    origin,
                });
            }
            StatementKind::Definition(definition) => own_definitions.push(Sourced {
                value: definition.clone(),
                origin,
            }),
            StatementKind::Goal(goal) => game.goal = at(goal.clone(), origin),
            StatementKind::Steps(steps) => {
                game.steps = Some(Sourced {
                    value: steps.clone(),
                    origin,
                });
            }
            StatementKind::ScoreIncrements => game.score_increments = Some(origin),
            StatementKind::Ending(condition) => game.ending = at(condition.clone(), origin),
            StatementKind::Rule(rule) => game.rules.push(Sourced {
                value: rule.clone(),
                origin,
            }),
            StatementKind::Assert { name, condition } => own_assertions.push(Sourced {
                value: (name.clone(), condition.clone()),
                origin,
            }),
            StatementKind::Network(words) => {
                game.network = Some(Sourced {
                    value: words.clone(),
                    origin,
                });
            }
            StatementKind::Port(port) => {
                game.port = Some(Sourced {
                    value: *port,
                    origin,
                });
            }
        }
    }
    supersede(&mut game.definitions, own_definitions, |d| {
        (d.value.name.key(), d.value.body.slot())
    });
    supersede(&mut game.assertions, own_assertions, |a| a.value.0.key());
}

/// Appends `own` (one file's items, in order) to `inherited` as if each were pushed in turn
/// after removing every item before it with the same key: of `own`'s items with one key only the
/// last stays, and it removes the inherited ones with that key. In time linear in the items (a
/// file of thousands of definitions took seconds when each push scanned all before it).
fn supersede<T, K: Eq + Hash>(inherited: &mut Vec<T>, own: Vec<T>, key: impl Fn(&T) -> K) {
    let mut later = HashSet::new();
    let mut kept: Vec<T> = own
        .into_iter()
        .rev()
        .filter(|item| later.insert(key(item)))
        .collect();
    kept.reverse();
    inherited.retain(|item| !later.contains(&key(item)));
    inherited.append(&mut kept);
}

fn at<T>(value: T, origin: Origin) -> Option<Sourced<T>> {
    Some(Sourced { value, origin })
}

/// The first mention of `opponent` in the game's definitions, goal and rules.
fn first_opponent(game: &EggGame) -> Option<Origin> {
    let definitions = game.definitions.iter().filter_map(|d| match &d.value.body {
        crate::egg::model::DefinitionBody::Phrase(value) => Some((value, d.origin)),
        _ => None,
    });
    let goal = game.goal.iter().map(|g| (&g.value, g.origin));
    let rules = game.rules.iter().map(|r| (&r.value.value, r.origin));
    definitions
        .chain(goal)
        .chain(rules)
        .find(|(value, _)| mentions(value, "opponent"))
        .map(|(_, origin)| origin)
}

/// Whether `value` names `word` (as a word or a call), at any depth.
pub fn mentions(value: &Value, word: &str) -> bool {
    let mut found = false;
    walk_terms(value, &mut |term| match term {
        Term::Word(w) => found |= key(&w.text) == word,
        Term::Call(call) => found |= key(&call.function.text) == word,
        _ => {}
    });
    found
}

/// Calls `visit` on every term of `value`, nested ones included. Iterative: the lowering bounds
/// the depth, but a wide value should not cost stack either.
pub fn walk_terms<'v>(value: &'v Value, visit: &mut impl FnMut(&'v Term)) {
    let mut pending: Vec<&'v Term> = value.terms.iter().rev().collect();
    while let Some(term) = pending.pop() {
        visit(term);
        let mut push_values = |values: &'v [Value]| {
            for value in values.iter().rev() {
                pending.extend(value.terms.iter().rev());
            }
        };
        match term {
            Term::List { items, .. } | Term::Tuple { items, .. } => push_values(items),
            Term::Group(inner) => pending.extend(inner.terms.iter().rev()),
            Term::Call(call) => push_values(&call.arguments),
            Term::Range(range) => pending.extend([&range.end, &range.start]),
            Term::Arithmetic(arithmetic) => pending.extend([&arithmetic.right, &arithmetic.left]),
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use salsa::Setter;

    use super::*;
    use crate::RootDatabase;
    use crate::egg::model::Players;
    use crate::egg::workspace::set_egg_workspace;

    fn file(db: &RootDatabase, path: &str, text: &str) -> SourceFile {
        SourceFile::new(db, path.into(), crate::Syntax::Egg, Arc::from(text), None)
    }

    fn names(db: &RootDatabase, file: SourceFile) -> Vec<String> {
        egg_lineage(db, file)
            .links
            .iter()
            .map(|l| l.name.clone())
            .collect()
    }

    #[test]
    fn bases_are_found_by_name_or_stem_and_overridden() {
        let mut db = RootDatabase::default();
        let base = file(
            &db,
            "w/tetris.egg",
            "game is tetris\n1 player\ngoal is maximize(score)\n",
        );
        let side = file(&db, "w/side-tetris.egg", "SideTetris is like TETRIS\n");
        let two = file(
            &db,
            "w/two.egg",
            "TwoPlayerTetris is like side-tetris\n2 players\n",
        );
        set_egg_workspace(&mut db, vec![base, side, two]);
        assert_eq!(
            names(&db, two),
            ["TwoPlayerTetris", "side-tetris", "TETRIS"]
        );
        let players =
            |db: &RootDatabase, f| egg_game(db, f).players.as_ref().map(|p| p.value.bounds());
        assert_eq!(players(&db, two), Some((2, 2)));
        assert_eq!(players(&db, side), Some((1, 1)));
        // Editing the base reaches every variation.
        base.set_text(&mut db)
            .to(Arc::from("game is tetris\n3 players\n"));
        assert_eq!(players(&db, side), Some((3, 3)));
        assert!(egg_game(&db, two).goal.is_none());
        assert!(matches!(
            egg_game(&db, two).players.as_ref().map(|p| &p.value),
            Some(Players::Count { min: 2, .. })
        ));
    }

    /// `supersede` gives what removing the earlier items of each key before each push gives.
    #[test]
    fn supersede_keeps_the_last_item_of_each_key_in_push_order() {
        let one_by_one = |inherited: &[(char, u8)], own: &[(char, u8)]| {
            let mut items = inherited.to_vec();
            for &item in own {
                items.retain(|earlier| earlier.0 != item.0);
                items.push(item);
            }
            items
        };
        let inherited = [('a', 1), ('b', 1), ('a', 2), ('c', 1), ('c', 2)];
        let owns: [&[(char, u8)]; 4] = [
            &[],
            &[('a', 3)],
            &[('d', 1), ('a', 3), ('d', 2), ('b', 2), ('a', 4)],
            &[('e', 1), ('e', 2), ('e', 3)],
        ];
        for own in owns {
            let mut items = inherited.to_vec();
            supersede(&mut items, own.to_vec(), |item| item.0);
            assert_eq!(items, one_by_one(&inherited, own), "{own:?}");
        }
        // Inherited items of one key that no own item replaces stay, both of them.
        let mut items = inherited.to_vec();
        supersede(&mut items, vec![('a', 3)], |item| item.0);
        assert_eq!(items, [('b', 1), ('c', 1), ('c', 2), ('a', 3)]);
    }

    #[test]
    fn loops_and_missing_bases_stop_the_chain() {
        let mut db = RootDatabase::default();
        let a = file(&db, "w/a.egg", "A is like B\n");
        let b = file(&db, "w/b.egg", "B is like A\n");
        let lost = file(&db, "w/lost.egg", "Lost is like Nowhere\n");
        // Without a workspace nothing is looked for.
        assert_eq!(
            egg_lineage(&db, lost).problem,
            Some(LineageProblem::NoWorkspace)
        );
        set_egg_workspace(&mut db, vec![a, b, lost]);
        assert!(matches!(
            egg_lineage(&db, a).problem,
            Some(LineageProblem::Cycle { file, back_to: 0, .. }) if file == b
        ));
        assert!(
            matches!(
                &egg_lineage(&db, lost).problem,
                Some(LineageProblem::Unresolved { base, .. }) if base.text == "Nowhere"
            ),
            "{:?}",
            egg_lineage(&db, lost)
        );
    }

    #[test]
    fn a_same_folder_base_wins_over_another_folder() {
        let mut db = RootDatabase::default();
        let far = file(&db, "corpus/tetris.egg", "game is tetris\n");
        let near = file(&db, "mine/tetris.egg", "game is tetris\n");
        let variation = file(&db, "mine/side.egg", "Side is like Tetris\n");
        set_egg_workspace(&mut db, vec![far, near, variation]);
        assert_eq!(egg_lineage(&db, variation).links[1].file, near);
    }
}
