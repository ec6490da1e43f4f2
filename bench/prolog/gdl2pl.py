#!/usr/bin/env python3
"""Translate a GDL game description (KIF syntax) into a Prolog program.

This is the plain translation of the general-game-playing literature, used here only to
measure SWI-Prolog as a peer of ludeme's GDL reasoner (issue 4). It is not part of the
ludeme product.

    python3 gdl2pl.py GAME.kif > GAME.pl

Translation rules (see README.md for the caveats):

* Every rule ``(<= head body...)`` becomes one clause ``head :- body.``; every other
  top-level sentence becomes a fact.
* ``(true X)`` becomes ``gdl_true(X)`` and ``(does R M)`` becomes ``gdl_does(R, M)``: dynamic
  facts that the driver asserts for the current state and the current joint move.
* Every other relation ``r`` becomes the predicate ``r_r`` (the prefix keeps GDL names such as
  ``true``, ``not``, ``succ`` or ``number`` clear of Prolog built-ins).
* ``(distinct A B)`` becomes ``A \\== B``, ``(not L)`` becomes ``\\+ L``, ``(or L1 L2 ...)``
  becomes ``(L1 ; L2 ; ...)``.
* KIF variables ``?x`` become Prolog variables ``V_x``; constants become atoms (quoted where
  Prolog needs it), integers stay integers; function terms ``(f a b)`` become compound terms
  ``f(a, b)``.
* Body literals keep their order, except that a negative literal (``not``, ``distinct``, or an
  ``or`` made only of such filters) waits until the positive literals before it have bound its
  variables. GDL is order-free, but Prolog's negation as failure and ``\\==`` are only sound on
  bound terms.
* No tabling: plain SLD resolution, as Prolog-based GGP players of the Fluxplayer era did.
"""

import re
import sys

# --------------------------------------------------------------------------- reading KIF


def tokenize(text):
    """The tokens of a KIF text: '(', ')' and symbols; ';' comments are dropped."""
    text = re.sub(r";[^\n]*", " ", text)
    return re.findall(r"[()]|[^\s()]+", text)


def read_all(text):
    """All top-level S-expressions of a KIF text, as nested Python lists of strings."""
    tokens = tokenize(text)
    forms, stack = [], []
    for token in tokens:
        if token == "(":
            stack.append([])
        elif token == ")":
            if not stack:
                raise SyntaxError("unbalanced ')'")
            done = stack.pop()
            (stack[-1] if stack else forms).append(done)
        else:
            (stack[-1] if stack else forms).append(token)
    if stack:
        raise SyntaxError("unbalanced '(': %d left open" % len(stack))
    return forms


# --------------------------------------------------------------------------- writing Prolog

BARE_ATOM = re.compile(r"^[a-z][A-Za-z0-9_]*$")
INTEGER = re.compile(r"^(0|[1-9][0-9]*)$")


def atom(name):
    """A Prolog atom for a GDL constant, quoted where needed."""
    if BARE_ATOM.match(name):
        return name
    return "'" + name.replace("\\", "\\\\").replace("'", "\\'") + "'"


def constant(name):
    return name if INTEGER.match(name) else atom(name)


def is_var(x):
    return isinstance(x, str) and x.startswith("?")


def var(name):
    """A Prolog variable for a KIF variable: ?x -> V_x (other characters hex-escaped)."""
    body = "".join(c if c.isalnum() or c == "_" else "_%02x" % ord(c) for c in name[1:])
    return "V_" + body


def term(x):
    """A GDL term (constant, variable or function term) as a Prolog term."""
    if isinstance(x, str):
        return var(x) if is_var(x) else constant(x)
    if not x or not isinstance(x[0], str) or is_var(x[0]):
        raise SyntaxError("bad function term: %r" % (x,))
    return "%s(%s)" % (atom(x[0]), ", ".join(term(a) for a in x[1:]))


def relation(name, arity):
    """The Prolog predicate name of a GDL relation."""
    if name == "true" and arity == 1:
        return "gdl_true"
    if name == "does" and arity == 2:
        return "gdl_does"
    return atom("r_" + name)


def atomic_sentence(x, used):
    """A GDL atom (relation applied to terms) as a Prolog goal; records name/arity in used."""
    if isinstance(x, str):
        name, args = x, []
    else:
        name, args = x[0], x[1:]
    if not isinstance(name, str) or is_var(name):
        raise SyntaxError("bad sentence: %r" % (x,))
    pred = relation(name, len(args))
    used.add((pred, len(args)))
    if not args:
        return pred
    return "%s(%s)" % (pred, ", ".join(term(a) for a in args))


def variables(x, out=None):
    out = set() if out is None else out
    if isinstance(x, str):
        if is_var(x):
            out.add(x)
    else:
        for y in x:
            variables(y, out)
    return out


def head_of(x):
    return x[0] if isinstance(x, list) and x and isinstance(x[0], str) else None


def is_filter(lit):
    """Does this literal only test bindings (not, distinct, or of such)?"""
    h = head_of(lit)
    if h in ("not", "distinct"):
        return True
    if h == "or":
        return all(is_filter(d) for d in lit[1:])
    return False


def literal(lit, used):
    h = head_of(lit)
    if h == "not":
        return "\\+ " + literal(lit[1], used)
    if h == "distinct":
        return "%s \\== %s" % (term(lit[1]), term(lit[2]))
    if h == "or":
        return "( " + " ; ".join(literal(d, used) for d in lit[1:]) + " )"
    return atomic_sentence(lit, used)


def order_body(body):
    """Delay each filter literal until the positive literals before it bind its variables."""
    ordered, pending, bound = [], [], set()
    for lit in body:
        if is_filter(lit):
            pending.append(lit)
        else:
            ordered.append(lit)
            variables(lit, bound)
        ready = [p for p in pending if variables(p) <= bound]
        for p in ready:
            ordered.append(p)
            pending.remove(p)
    return ordered + pending  # unsafe leftovers keep their relative order, at the end


def translate(forms):
    """Prolog source text for a list of GDL sentences."""
    clauses, defined, used = [], set(), set()
    for form in forms:
        if head_of(form) == "<=":
            head, body = form[1], order_body(form[2:])
        else:
            head, body = form, []
        h = atomic_sentence(head, defined)
        if body:
            goals = [literal(b, used) for b in body]
            clauses.append("%s :-\n    %s." % (h, ",\n    ".join(goals)))
        else:
            clauses.append(h + ".")
    out = [
        "% Generated by bench/prolog/gdl2pl.py: do not edit.",
        ":- style_check(-singleton).",
        ":- dynamic gdl_true/1, gdl_does/2.",
    ]
    for pred, arity in sorted(defined):
        out.append(":- discontiguous %s/%d." % (pred, arity))
    # Relations used in bodies (or needed by the driver) but never defined are empty.
    needed = used | {("r_terminal", 0), ("r_legal", 2), ("r_next", 1), ("r_goal", 2),
                     ("r_role", 1), ("r_init", 1)}
    for pred, arity in sorted(needed - defined - {("gdl_true", 1), ("gdl_does", 2)}):
        out.append(":- dynamic %s/%d." % (pred, arity))
    out.append("")
    out.extend(clauses)
    return "\n".join(out) + "\n"


def main(argv):
    if len(argv) != 2:
        sys.exit("usage: gdl2pl.py GAME.kif > GAME.pl")
    with open(argv[1], encoding="utf-8", errors="replace") as f:
        sys.stdout.write(translate(read_all(f.read())))


if __name__ == "__main__":
    main(sys.argv)
