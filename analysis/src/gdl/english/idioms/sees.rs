//! What each player sees (GDL-II): a game with `sees` rules hides the state and the others'
//! moves, and after every move tells each player only what its `sees` rules give it. The
//! chapter says that first, then each rule in a player's words:
//!
//! - a rule for every player (its role a variable that only `role` ranges over, or no
//!   condition on it at all) reads "Every player sees …";
//! - a percept that repeats a whole move of the body (`(sees ?r (did ?p ?m)) :- (does ?p ?m)`)
//!   reads "… sees every move of every player, as did (P, M)", "… sees the move of random", or
//!   "… sees their own move" when the mover is the one who sees;
//! - a player with no `sees` rule sees nothing but their own moves, and is told so.
//!
//! `random`, GDL-II's chance, is no player: the overview says it stands for chance.

use crate::gdl::keywords;
use crate::gdl::model::{Literal, Rule, Term};
use crate::rulebook::Line;

use super::super::terms::{self, join_list};
use super::super::vocabulary::is_random_role;
use super::{Game, keyword};

impl Game<'_> {
    /// The players who are not chance.
    pub(super) fn players(&self) -> Vec<String> {
        self.roles
            .iter()
            .filter(|role| !is_random_role(role))
            .cloned()
            .collect()
    }

    /// "random stands for chance: …", when the game has GDL-II's chance role.
    pub(super) fn chance(&self) -> Option<Line> {
        let rule = self.rules_of(keywords::ROLE).find(|rule| {
            matches!(rule.head.args.as_slice(), [Term::Constant(c)] if is_random_role(&c.name))
        })?;
        Some(Line::new(
            format!(
                "{} stands for chance: it is no player, and picks each of its moves at random",
                terms::term(&rule.head.args[0])
            ),
            vec![rule.range],
        ))
    }

    /// The chapter on what the players see; empty for a game without `sees` rules.
    pub(super) fn information(&self) -> Vec<Line> {
        let sees: Vec<&Rule> = self.rules_of(keywords::SEES).collect();
        if sees.is_empty() {
            return Vec::new();
        }
        let mut lines = vec![Line::new(
            "The players see neither the state of the game nor the others' moves: after every \
             move, each player knows their own move and sees only what the rules below show them",
            Vec::new(),
        )];
        let mut seeing: Vec<String> = Vec::new();
        for rule in &sees {
            let [role, percept] = rule.head.args.as_slice() else {
                continue;
            };
            let (who, every) = match role {
                Term::Variable(variable) if self.ranges_over_roles_only(rule, &variable.name) => {
                    ("Every player".to_owned(), true)
                }
                _ => (terms::term(role), false),
            };
            if every {
                seeing.extend(self.players());
            } else {
                seeing.push(terms::term(role));
            }
            let rest: Vec<Literal> = rule
                .body
                .iter()
                .filter(|literal| !(every && is_role_test(literal)))
                .cloned()
                .collect();
            let text = match self.seen_move(role, percept, &rest) {
                Some((mover, others)) => {
                    let lead = format!("{who} sees {mover}, as {}", terms::term(percept));
                    if others.is_empty() {
                        lead
                    } else {
                        self.rule_sentences(&lead, &others, "")
                    }
                }
                None => {
                    let lead = format!("{who} sees {}", terms::term(percept));
                    if rest.is_empty() {
                        format!("{lead} after every move")
                    } else {
                        self.rule_sentences(&lead, &rest, "")
                    }
                }
            };
            lines.push(Line::new(text, vec![rule.range]));
        }
        let blind: Vec<String> = self
            .players()
            .into_iter()
            .filter(|player| !seeing.contains(player))
            .collect();
        match blind.as_slice() {
            [] => {}
            [one] => lines.push(Line::new(
                format!("{one} sees nothing but their own moves"),
                Vec::new(),
            )),
            many => lines.push(Line::new(
                format!("{} see nothing but their own moves", join_list(many, "and")),
                Vec::new(),
            )),
        }
        lines
    }

    /// Whether variable `name` of a `sees` rule is any player: only `role` tests it, if
    /// anything does.
    fn ranges_over_roles_only(&self, rule: &Rule, name: &str) -> bool {
        rule.body.iter().all(|literal| {
            let mut uses = false;
            literal.for_each_variable(&mut |v| uses |= *v.name == *name);
            !uses || is_role_test(literal)
        })
    }

    /// When the percept repeats a move of the body, `(does P M)` with the percept holding M:
    /// what is seen ("the move P makes", "their own move", "the move of random") and the other
    /// conditions.
    fn seen_move(
        &self,
        seer: &Term,
        percept: &Term,
        body: &[Literal],
    ) -> Option<(String, Vec<Literal>)> {
        let mut percept_variables = Vec::new();
        percept.for_each_variable(&mut |v| percept_variables.push(v.name.clone()));
        let at = body.iter().position(|literal| match literal {
            Literal::Sentence(s) if keyword(s) == Some(keywords::DOES) => {
                matches!(s.args.get(1), Some(Term::Variable(m)) if percept_variables.contains(&m.name))
            }
            _ => false,
        })?;
        let Literal::Sentence(does) = &body[at] else {
            return None;
        };
        let mover = does.args.first()?;
        let what = match mover {
            _ if terms::term(mover) == terms::term(seer) => "their own move".to_owned(),
            Term::Variable(_) => "every move of every player".to_owned(),
            _ => format!("the move of {}", terms::term(mover)),
        };
        let mut others = body.to_vec();
        others.remove(at);
        // The mover ranged over by `role` only is "every player" already.
        if matches!(mover, Term::Variable(_)) {
            others.retain(|literal| !is_role_test(literal));
        }
        Some((what, others))
    }
}

fn is_role_test(literal: &Literal) -> bool {
    matches!(literal, Literal::Sentence(s) if keyword(s) == Some(keywords::ROLE))
}

#[cfg(test)]
mod tests {
    use super::super::tests::book;

    const HIDDEN: &str = "(role seeker) (role hider) (role random) (spot 1) (spot 2)
         (init (phase 0))
         (<= (legal random (hide ?s)) (spot ?s))
         (<= (legal hider (wave ?s)) (spot ?s))
         (<= (legal seeker (guess ?s)) (spot ?s))
         (<= (sees seeker (hint ?s)) (does random (hide ?s)) (distinct ?s 2))
         (<= (sees ?r (waved ?s)) (role ?r) (does hider (wave ?s)))
         (<= (sees ?r (did ?p ?m)) (role ?r) (role ?p) (does ?p ?m) (true (phase 0)))
         (<= terminal (true (phase 1)))";

    #[test]
    fn what_each_player_sees_is_said_per_rule() {
        let said = book(HIDDEN);
        assert!(
            said.contains("The players see neither the state of the game nor the others' moves"),
            "{said}"
        );
        assert!(
            said.contains("seeker sees hint (S) when random does hide (S) and S is not 2."),
            "{said}"
        );
        assert!(
            said.contains("Every player sees waved (S) when hider does wave (S)."),
            "{said}"
        );
        assert!(
            said.contains(
                "Every player sees every move of every player, as did (P, M) when phase is 0."
            ),
            "{said}"
        );
        // Chance is not a player.
        assert!(
            said.contains("A game for two players, seeker and hider"),
            "{said}"
        );
        assert!(said.contains("random stands for chance"), "{said}");
    }

    #[test]
    fn a_player_without_a_sees_rule_sees_only_their_own_moves() {
        let text = "(role seeker) (role hider) (spot 1)
             (<= (sees seeker (hint ?s)) (does hider (hide ?s)))
             (<= (sees hider (mine ?m)) (does hider ?m))";
        let said = book(text);
        assert!(
            said.contains("hider sees their own move, as mine (M)."),
            "{said}"
        );
        let text = "(role seeker) (role hider) (spot 1)
             (<= (sees seeker (hint ?s)) (does hider (hide ?s)))";
        let said = book(text);
        assert!(
            said.contains("hider sees nothing but their own moves."),
            "{said}"
        );
        // Without `sees` rules, nothing is said of seeing: the game has perfect information.
        assert!(
            !book("(role a) (role b)").contains("sees"),
            "{}",
            book("(role a) (role b)")
        );
    }
}
