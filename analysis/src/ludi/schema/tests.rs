//! The schema's own consistency: what the checker, the English and the manual rely on.

use super::*;
use crate::ludi::english::CONTEXT_PLACEHOLDERS;

/// The `{placeholders}` of a template.
fn placeholders(template: &str) -> Vec<&str> {
    template
        .split('{')
        .skip(1)
        .filter_map(|part| part.split_once('}').map(|(name, _)| name))
        .collect()
}

#[test]
fn every_ludeme_has_a_meaning_an_example_and_an_english_template() {
    for ludeme in LUDEMES {
        assert!(!ludeme.meaning.is_empty(), "{} has no meaning", ludeme.name);
        assert!(!ludeme.example.is_empty(), "{} has no example", ludeme.name);
        assert!(!ludeme.english.is_empty(), "{} has no English", ludeme.name);
    }
}

#[test]
fn templates_name_only_parameters_or_context() {
    for ludeme in LUDEMES {
        for name in placeholders(ludeme.english) {
            assert!(
                ludeme.param(name).is_some() || CONTEXT_PLACEHOLDERS.contains(&name),
                "{}: the template's {{{name}}} is no parameter",
                ludeme.name
            );
        }
        assert_eq!(
            ludeme.english.matches('[').count(),
            ludeme.english.matches(']').count(),
            "{}: unbalanced brackets",
            ludeme.name
        );
    }
}

#[test]
fn names_are_unique_within_a_kind_and_parts_are_referenced_by_existing_entries() {
    for (i, a) in LUDEMES.iter().enumerate() {
        for b in &LUDEMES[i + 1..] {
            assert!(
                !(a.name == b.name && a.kind == b.kind),
                "{} twice as {:?}",
                a.name,
                a.kind
            );
        }
        for param in a.params {
            for accepts in param.accepts {
                match *accepts {
                    Accepts::Part(name) => assert!(
                        named(name).any(|l| l.kind == Kind::Part),
                        "{} takes the unknown part {name}",
                        a.name
                    ),
                    Accepts::Record(name) => assert!(record(name).is_some(), "no record {name}"),
                    _ => {}
                }
            }
        }
    }
}

#[test]
fn every_ludeme_but_the_game_has_a_place() {
    for ludeme in LUDEMES {
        if ludeme.kind != Kind::Game && ludeme.kind != Kind::Logic {
            assert!(
                !places_of(ludeme).is_empty(),
                "{} can appear nowhere",
                ludeme.name
            );
        }
    }
}

#[test]
fn the_seed_ludemes_are_all_there() {
    // Appendix I, its move example, and the games of Appendix II.
    for name in [
        "game",
        "players",
        "board",
        "phase",
        "tiling",
        "i-nbors",
        "shape",
        "size",
        "regions",
        "pieces",
        "label",
        "value",
        "state",
        "flags",
        "moves",
        "move",
        "priority",
        "mandatory",
        "dirn",
        "owner",
        "pre",
        "action",
        "post",
        "empty",
        "enemy",
        "line",
        "num-between",
        "group-size",
        "num-nbors",
        "distance",
        "piece-state",
        "height",
        "connected",
        "and",
        "or",
        "not",
        ">",
        "<",
        ">=",
        "<=",
        "=",
        "+",
        "f",
        "b",
        "l",
        "r",
        "pass",
        "pop",
        "push",
        "capture",
        "surround",
        "d-nbors",
        "if",
        "inc-state",
        "start",
        "place",
        "in-hand",
        "home",
        "play",
        "can-pass",
        "end",
        "win",
        "lose",
        "draw",
        "connect",
        "group",
        "in-a-row",
        "reach",
        "eliminate",
        "score",
        "stack",
        "no-move",
        "mover-wins",
        "mover-loses",
        "own-regions",
        "support",
        "advisors",
        "description",
        "aim",
        "ancestry",
        "ranking",
        "viable",
    ] {
        assert!(named(name).next().is_some(), "the schema lacks `{name}`");
    }
    for tiling in ["tri", "square", "hex", "trunc-square"] {
        assert!(
            named(tiling).any(|l| l.kind == Kind::Tiling),
            "tiling {tiling}"
        );
    }
    for shape in ["tri", "square", "hex", "rhombus", "trapezium", "boardless"] {
        assert!(named(shape).any(|l| l.kind == Kind::Shape), "shape {shape}");
    }
}

#[test]
fn suggestions_find_near_misses() {
    let names = LUDEMES.iter().map(|l| l.name);
    assert_eq!(
        suggestions("in-a-rwo", names.clone()).first(),
        Some(&"in-a-row")
    );
    assert_eq!(suggestions("sqaure", names).first(), Some(&"square"));
}

#[test]
fn the_model_has_a_value_for_every_tiling_and_shape_word() {
    use crate::ludi::model::{Shape, Tiling};
    let words = |kind: Kind| -> Vec<&str> {
        LUDEMES
            .iter()
            .filter(|l| l.kind == kind)
            .map(|l| l.name)
            .collect()
    };
    assert_eq!(words(Kind::Shape), Shape::ALL.map(Shape::name));
    assert_eq!(words(Kind::Tiling), Tiling::ALL.map(Tiling::name));
}
