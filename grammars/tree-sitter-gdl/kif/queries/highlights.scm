; Stanford GDL (KIF) highlights.
; Every node matches at most one pattern (or several with the same capture), so the result is the
; same in editors where the first matching pattern wins (tree-sitter-highlight, Helix) and where
; the last one wins (Neovim). The position of a form decides what its head is: the head of a
; rule's head is a relation being defined; every other head is a relation or function in use.

(comment) @comment

; The rule arrow.
(rule
  "<=" @keyword)

; GDL's reserved relations, as the relation of a form ...
(list
  head: (constant) @keyword
  (#any-of? @keyword
    "role" "init" "true" "next" "legal" "does" "goal" "terminal" "base" "input" "distinct" "not"
    "or" "sees"))

; ... and the zero-arity keyword wherever it stands.
((constant) @keyword
  (#eq? @keyword "terminal"))

; The GDL-II chance player.
((constant) @constant.builtin
  (#eq? @constant.builtin "random"))

; A relation defined by a rule: `line` in (<= (line ?x) ...), `open` in (<= open ...).
(rule
  head: (list
    head: (constant) @function
    (#not-any-of? @function
      "role" "init" "true" "next" "legal" "does" "goal" "terminal" "base" "input" "distinct"
      "not" "or" "sees" "random")))

(rule
  head: (constant) @function
  (#not-any-of? @function "terminal" "random"))

; A relation or function in use: the head of any other form (in a rule's body, inside another
; form, or a fact at the top level), and a zero-arity relation in a rule's body.
(rule
  body: (list
    head: (constant) @function.call
    (#not-any-of? @function.call
      "role" "init" "true" "next" "legal" "does" "goal" "terminal" "base" "input" "distinct"
      "not" "or" "sees" "random")))

(list
  (list
    head: (constant) @function.call
    (#not-any-of? @function.call
      "role" "init" "true" "next" "legal" "does" "goal" "terminal" "base" "input" "distinct"
      "not" "or" "sees" "random")))

(source_file
  (list
    head: (constant) @function.call
    (#not-any-of? @function.call
      "role" "init" "true" "next" "legal" "does" "goal" "terminal" "base" "input" "distinct"
      "not" "or" "sees" "random")))

(rule
  body: (constant) @function.call
  (#not-any-of? @function.call "terminal" "random"))

(list
  head: (number) @function.call)

; Arguments and anything else that is not in head position.
(list
  head: (_)
  (constant) @constant
  (#not-any-of? @constant "terminal" "random"))

(list
  !head
  (constant) @constant
  (#not-any-of? @constant "terminal" "random"))

(source_file
  (constant) @constant
  (#not-any-of? @constant "terminal" "random"))

(list
  head: (_)
  (number) @number)

(list
  !head
  (number) @number)

(rule
  (number) @number)

(source_file
  (number) @number)

(variable) @variable

[
  "("
  ")"
] @punctuation.bracket
