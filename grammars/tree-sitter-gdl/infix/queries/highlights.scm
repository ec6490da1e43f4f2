; Stanford GDL (infix, Gamemaster/Epilog) highlights.
; Every node matches at most one pattern, so the result is the same in editors where the first
; matching pattern wins (tree-sitter-highlight, Helix) and where the last one wins (Neovim).

(comment) @comment

":-" @keyword

[
  "&"
  "|"
  "~"
] @operator

; GDL's reserved relations.
(atom
  name: (constant) @keyword
  (#any-of? @keyword
    "role" "init" "true" "next" "legal" "does" "goal" "terminal" "base" "input" "distinct" "sees"))

; The GDL-II chance player.
((constant) @constant.builtin
  (#eq? @constant.builtin "random"))

; A relation defined by a rule.
(rule
  head: (atom
    name: (constant) @function
    (#not-any-of? @function
      "role" "init" "true" "next" "legal" "does" "goal" "terminal" "base" "input" "distinct"
      "sees" "random")))

; A relation used in a body or stated by a fact: every other place an atom stands.
(fact
  sentence: (atom
    name: (constant) @function.call
    (#not-any-of? @function.call
      "role" "init" "true" "next" "legal" "does" "goal" "terminal" "base" "input" "distinct"
      "sees" "random")))

(rule
  body: (atom
    name: (constant) @function.call
    (#not-any-of? @function.call
      "role" "init" "true" "next" "legal" "does" "goal" "terminal" "base" "input" "distinct"
      "sees" "random")))

(conjunction
  (atom
    name: (constant) @function.call
    (#not-any-of? @function.call
      "role" "init" "true" "next" "legal" "does" "goal" "terminal" "base" "input" "distinct"
      "sees" "random")))

(disjunction
  (atom
    name: (constant) @function.call
    (#not-any-of? @function.call
      "role" "init" "true" "next" "legal" "does" "goal" "terminal" "base" "input" "distinct"
      "sees" "random")))

(negation
  (atom
    name: (constant) @function.call
    (#not-any-of? @function.call
      "role" "init" "true" "next" "legal" "does" "goal" "terminal" "base" "input" "distinct"
      "sees" "random")))

(group
  (atom
    name: (constant) @function.call
    (#not-any-of? @function.call
      "role" "init" "true" "next" "legal" "does" "goal" "terminal" "base" "input" "distinct"
      "sees" "random")))

; A function term such as mark(M,N).
(compound
  name: (constant) @constructor
  (#not-eq? @constructor "random"))

; A constant argument.
(arguments
  (constant) @constant
  (#not-eq? @constant "random"))

(variable) @variable

(number) @number

[
  "("
  ")"
] @punctuation.bracket

[
  ","
  "."
] @punctuation.delimiter
