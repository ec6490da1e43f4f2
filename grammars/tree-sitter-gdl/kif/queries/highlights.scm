; Stanford GDL (KIF) highlights.
; Patterns are ordered from specific to general: tree-sitter-highlight and Helix use the FIRST pattern
; that captures a node. Neovim lets the LAST matching pattern win, so a Neovim copy of this file
; must list the patterns in the reverse order.

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

; A relation defined by a rule.
(rule
  head: (list
    head: (constant) @function))

(rule
  head: (constant) @function)

; Any other relation or function symbol in head position.
(list
  head: (constant) @function.call)

(list
  head: (number) @function.call)

(variable) @variable

(number) @number

(constant) @constant

[
  "("
  ")"
] @punctuation.bracket
