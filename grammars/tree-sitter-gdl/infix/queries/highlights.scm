; Stanford GDL (infix, Gamemaster/Epilog) highlights.
; Patterns are ordered from specific to general: tree-sitter-highlight and Helix use the FIRST pattern
; that captures a node. Neovim lets the LAST matching pattern win, so a Neovim copy of this file
; must list the patterns in the reverse order.

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
    name: (_) @function))

; A relation used in a body or stated by a fact.
(atom
  name: (_) @function.call)

; A function term such as mark(M,N).
(compound
  name: (_) @constructor)

(variable) @variable

(number) @number

(constant) @constant

[
  "("
  ")"
] @punctuation.bracket

[
  ","
  "."
] @punctuation.delimiter
