//! GDL positions: a board recognised among the fluents, the other fluents as notes.
//!
//! GDL has no boards, only facts; but most games of the GGP repository keep their board in a
//! fluent `(cell X Y MARK)`: two coordinates from small ordered domains and what stands there.
//! The board relation is the fluent relation of arity three with constant arguments that has
//! the most fluents — among those the state holds and, when the game is grounded, every fluent
//! it may hold (connect four starts with an empty board and no `cell` fluent at all). Its
//! coordinates are ordered as numbers when they are numbers, else along a static successor
//! relation that chains them (`(succ a b)`), else in the order a static fact lists them
//! (`(file a) (file b) ...`), else in the order the game first names them. The first
//! coordinate runs west to east, the second south to north, as on a chess board. Marks `b`,
//! `blank` and `empty` leave a cell empty; a mark belongs to the role it names (`white`), that
//! it begins (`x` of `xplayer`), or whose initial it starts with (`wr` of `white`).

use std::collections::{BTreeMap, HashMap, HashSet};

use super::{Cell, Depict, Picture, PieceMark};
use crate::Game;
use crate::gdl::program::Pattern;
use crate::gdl::{Ground, Reasoner, ReasonerState, Sym, Symbols};

/// The most values a board coordinate may take: more is not a board but a counter.
const MAX_SIDE: usize = 64;

/// Marks that mean an empty cell.
const BLANK_MARKS: [&str; 3] = ["b", "blank", "empty"];

impl Depict for Reasoner {
    fn picture(&self, state: &ReasonerState) -> Picture {
        let program = self.program();
        let symbols = &program.symbols;
        let mut picture = Picture {
            roles: self.roles().to_vec(),
            ..Picture::default()
        };
        let Some(fluents) = self.fluents(state) else {
            picture.notes = self.render_state(state);
            return picture;
        };
        let board = find_board(&fluents, self.possible_fluents())
            .and_then(|relation| Board::new(relation, &fluents, self.possible_fluents(), self));
        let Some(board) = board else {
            picture.notes = sorted_text(&fluents, symbols);
            return picture;
        };
        let mut marks: BTreeMap<(usize, usize), Vec<Sym>> = BTreeMap::new();
        let mut others = Vec::new();
        for fluent in &fluents {
            match board.square_of(fluent) {
                Some((square, mark)) => marks.entry(square).or_default().push(mark),
                None => others.push(fluent.clone()),
            }
        }
        let name = |sym: Sym| symbols.name(sym).to_owned();
        for (row, &y) in board.rows.iter().enumerate() {
            for (column, &x) in board.columns.iter().enumerate() {
                let index = picture.cells.len();
                picture.cells.push(Cell {
                    outline: super::unit_square(column as f64, row as f64),
                    label: Some(format!("{},{}", name(x), name(y))),
                    shade: ((column + row) % 2) as u8,
                });
                let shown: Vec<Sym> = marks
                    .get(&(column, row))
                    .into_iter()
                    .flatten()
                    .copied()
                    .filter(|&mark| !is_blank(symbols.name(mark)))
                    .collect();
                if let Some(&first) = shown.first() {
                    let text: Vec<String> = shown.iter().map(|&mark| name(mark)).collect();
                    picture.pieces.push(PieceMark {
                        cell: index,
                        owner: owner_of(symbols.name(first), self.roles()),
                        name: text.join("+"),
                        count: 1,
                    });
                }
            }
        }
        picture.notes = sorted_text(&others, symbols);
        picture
    }
}

fn sorted_text(fluents: &[Ground], symbols: &Symbols) -> Vec<String> {
    let mut text: Vec<String> = fluents
        .iter()
        .map(|fluent| fluent.display(symbols).to_string())
        .collect();
    text.sort();
    text
}

fn is_blank(mark: &str) -> bool {
    BLANK_MARKS
        .iter()
        .any(|blank| blank.eq_ignore_ascii_case(mark))
}

/// The role a mark belongs to, if one can be told (see the module's opening).
fn owner_of(mark: &str, roles: &[String]) -> Option<usize> {
    let mark = mark.to_lowercase();
    let roles: Vec<String> = roles.iter().map(|role| role.to_lowercase()).collect();
    let unique = |test: &dyn Fn(&str) -> bool| {
        let mut found = roles.iter().enumerate().filter(|(_, role)| test(role));
        match (found.next(), found.next()) {
            (Some((index, _)), None) => Some(index),
            _ => None,
        }
    };
    if let Some(index) = roles.iter().position(|role| *role == mark) {
        return Some(index);
    }
    if let Some(index) = unique(&|role: &str| role.starts_with(mark.as_str())) {
        return Some(index);
    }
    let initials: HashSet<char> = roles.iter().filter_map(|r| r.chars().next()).collect();
    if initials.len() < roles.len() {
        return None;
    }
    let first = mark.chars().next()?;
    unique(&|role: &str| role.starts_with(first))
}

/// Whether `fluent` is `(relation X Y MARK)` with constant arguments; its parts if so.
fn board_parts(fluent: &Ground) -> Option<(Sym, Sym, Sym, Sym)> {
    let (relation, args) = match fluent {
        Ground::Func(relation, args) => (*relation, args),
        Ground::Const(_) => return None,
    };
    match args.as_ref() {
        [Ground::Const(x), Ground::Const(y), Ground::Const(mark)] => {
            Some((relation, *x, *y, *mark))
        }
        _ => None,
    }
}

/// The board relation: the one of arity three with the most fluents (see the module's
/// opening), if any has several and coordinates few enough to draw.
fn find_board(fluents: &[Ground], possible: &[Ground]) -> Option<Sym> {
    let mut squares: HashMap<Sym, Squares> = HashMap::new();
    for (relation, x, y, _) in fluents.iter().chain(possible).filter_map(board_parts) {
        let seen = squares.entry(relation).or_default();
        seen.squares.insert((x, y));
        seen.columns.insert(x);
        seen.rows.insert(y);
    }
    squares
        .into_iter()
        .filter(|(_, seen)| {
            seen.squares.len() >= 2 && seen.columns.len() <= MAX_SIDE && seen.rows.len() <= MAX_SIDE
        })
        // The most squares; among equals, the relation named first.
        .max_by_key(|(relation, seen)| (seen.squares.len(), std::cmp::Reverse(*relation)))
        .map(|(relation, _)| relation)
}

/// The coordinates a candidate board relation takes.
#[derive(Default)]
struct Squares {
    squares: HashSet<(Sym, Sym)>,
    columns: HashSet<Sym>,
    rows: HashSet<Sym>,
}

/// A recognised board: its relation and its coordinates in order.
struct Board {
    relation: Sym,
    columns: Vec<Sym>,
    rows: Vec<Sym>,
    column_of: HashMap<Sym, usize>,
    row_of: HashMap<Sym, usize>,
}

impl Board {
    fn new(
        relation: Sym,
        fluents: &[Ground],
        possible: &[Ground],
        game: &Reasoner,
    ) -> Option<Board> {
        let mut xs = Vec::new();
        let mut ys = Vec::new();
        for (r, x, y, _) in possible.iter().chain(fluents).filter_map(board_parts) {
            if r == relation {
                xs.push(x);
                ys.push(y);
            }
        }
        let facts = StaticFacts::of(game);
        let symbols = &game.program().symbols;
        let columns = facts.order(xs, symbols);
        let rows = facts.order(ys, symbols);
        let index = |values: &[Sym]| values.iter().enumerate().map(|(i, &v)| (v, i)).collect();
        Some(Board {
            relation,
            column_of: index(&columns),
            row_of: index(&rows),
            columns,
            rows,
        })
    }

    /// The (column, row) and mark of a fluent of the board relation.
    fn square_of(&self, fluent: &Ground) -> Option<((usize, usize), Sym)> {
        let (relation, x, y, mark) = board_parts(fluent)?;
        if relation != self.relation {
            return None;
        }
        Some(((*self.column_of.get(&x)?, *self.row_of.get(&y)?), mark))
    }
}

/// The game's facts without variables of arity one and two (`(index 1)`, `(succ 1 2)`), in
/// the order the program gives them, by relation.
struct StaticFacts {
    unary: Vec<Vec<Sym>>,
    binary: Vec<Vec<(Sym, Sym)>>,
}

impl StaticFacts {
    fn of(game: &Reasoner) -> StaticFacts {
        let program = game.program();
        let keywords = &program.keywords;
        let reserved = keywords.relations();
        let mut unary: BTreeMap<Sym, Vec<Sym>> = BTreeMap::new();
        let mut binary: BTreeMap<Sym, Vec<(Sym, Sym)>> = BTreeMap::new();
        for rule in &program.rules {
            let head = &rule.head;
            if !rule.body.is_empty() || reserved.contains(&head.relation) {
                continue;
            }
            match head.args.as_slice() {
                [Pattern::Const(a)] => unary.entry(head.relation).or_default().push(*a),
                [Pattern::Const(a), Pattern::Const(b)] => {
                    binary.entry(head.relation).or_default().push((*a, *b));
                }
                _ => {}
            }
        }
        StaticFacts {
            unary: unary.into_values().collect(),
            binary: binary.into_values().collect(),
        }
    }

    /// The distinct values of `seen` in board order (see the module's opening).
    fn order(&self, seen: Vec<Sym>, symbols: &Symbols) -> Vec<Sym> {
        let mut values: Vec<Sym> = Vec::new();
        for value in seen {
            if !values.contains(&value) {
                values.push(value);
            }
        }
        let numbers: Option<Vec<i64>> = values
            .iter()
            .map(|&v| symbols.name(v).parse::<i64>().ok())
            .collect();
        if let Some(numbers) = numbers {
            let mut pairs: Vec<(i64, Sym)> = numbers.into_iter().zip(values).collect();
            pairs.sort();
            return pairs.into_iter().map(|(_, v)| v).collect();
        }
        if let Some(chain) = self.binary.iter().find_map(|pairs| chain(&values, pairs)) {
            return chain;
        }
        let wanted: HashSet<Sym> = values.iter().copied().collect();
        for listed in &self.unary {
            let covered: HashSet<Sym> = listed.iter().copied().collect();
            if wanted.is_subset(&covered) {
                let mut order: Vec<Sym> = Vec::new();
                for &v in listed {
                    if wanted.contains(&v) && !order.contains(&v) {
                        order.push(v);
                    }
                }
                return order;
            }
        }
        // Symbols are numbered in the order the game first names them.
        values.sort();
        values
    }
}

/// `values` in the order of the successor relation `pairs`, if it chains them all: each value
/// but the last has exactly one successor among them, and one value has no predecessor.
fn chain(values: &[Sym], pairs: &[(Sym, Sym)]) -> Option<Vec<Sym>> {
    if values.len() < 2 {
        return None;
    }
    let wanted: HashSet<Sym> = values.iter().copied().collect();
    let mut next: HashMap<Sym, Sym> = HashMap::new();
    let mut has_predecessor: HashSet<Sym> = HashSet::new();
    for &(a, b) in pairs {
        if wanted.contains(&a) && wanted.contains(&b) {
            if next.insert(a, b).is_some_and(|other| other != b) || a == b {
                return None;
            }
            has_predecessor.insert(b);
        }
    }
    let mut starts = values.iter().filter(|v| !has_predecessor.contains(v));
    let (Some(&first), None) = (starts.next(), starts.next()) else {
        return None;
    };
    let mut order = vec![first];
    while let Some(&after) = next.get(order.last()?) {
        if order.contains(&after) {
            return None;
        }
        order.push(after);
    }
    (order.len() == values.len()).then_some(order)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_find_their_owners() {
        let roles = |names: &[&str]| names.iter().map(|n| n.to_string()).collect::<Vec<_>>();
        let tic_tac_toe = roles(&["xplayer", "oplayer"]);
        assert_eq!(owner_of("x", &tic_tac_toe), Some(0));
        assert_eq!(owner_of("o", &tic_tac_toe), Some(1));
        assert_eq!(owner_of("b", &tic_tac_toe), None);
        let chess = roles(&["white", "black"]);
        assert_eq!(owner_of("wr", &chess), Some(0));
        assert_eq!(owner_of("bp", &chess), Some(1));
        assert_eq!(owner_of("Black", &chess), Some(1));
        // Two roles with one initial: the initial tells nothing.
        assert_eq!(owner_of("bx", &roles(&["blue", "black"])), None);
    }

    #[test]
    fn successor_facts_chain_values() {
        let [a, b, c, d] = [Sym(1), Sym(2), Sym(3), Sym(4)];
        assert_eq!(
            chain(&[c, a, b], &[(a, b), (b, c), (c, d)]),
            Some(vec![a, b, c])
        );
        // A gap, a fork or a cycle is no chain.
        assert_eq!(chain(&[a, c], &[(a, b), (b, c)]), None);
        assert_eq!(chain(&[a, b, c], &[(a, b), (a, c)]), None);
        assert_eq!(chain(&[a, b], &[(a, b), (b, a)]), None);
    }
}
