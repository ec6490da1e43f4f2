; Ludi GDL syntax highlighting.
;
; The patterns are written to be mutually exclusive (through predicates), so
; the result is the same in editors where the first matching pattern wins
; (Helix, the tree-sitter CLI) and where the last one wins (Neovim).

; Atoms
; -----

(comment) @comment

(string) @string

[
  (integer)
  (float)
] @number

; Cell names such as A1, D4, AB12.
(cell) @constant

(operator) @operator

[
  "("
  ")"
] @punctuation.bracket

; Heads of lists
; --------------

; The main ludemes of a game and of a piece's moves.
(list
  head: (symbol) @keyword
  (#any-of? @keyword
    "game" "players" "board" "rules" "pieces" "start" "play" "end" "support"
    "moves" "move" "pre" "action" "post"))

; Logical operators combining conditions.
(list
  head: (symbol) @keyword.operator
  (#any-of? @keyword.operator "and" "or" "not" "if"))

; Capitalised heads name a record: a piece definition `(Stone All ...)`, a
; piece reference `(Stone White)` or an end clause `(All win ...)`.
(list
  head: (symbol) @type
  (#match? @type "^[A-Z]"))

; Every other head is a ludeme applied to its arguments:
; `(tiling square)`, `(in-a-row 3)`, `(empty to)`, `(push)`.
(list
  head: (symbol) @function
  (#not-match? @function "^[A-Z]")
  (#not-any-of? @function
    "game" "players" "board" "rules" "pieces" "start" "play" "end" "support"
    "moves" "move" "pre" "action" "post" "and" "or" "not" "if"))

; Arguments
; ---------

; Result types and end/move flags.
(list
  head: (_)
  (symbol) @constant.builtin
  (#any-of? @constant.builtin
    "win" "lose" "draw" "mover-wins" "mover-loses" "mandatory" "can-pass"))

; Capitalised names: the game's name, players, pieces, player types.
(list
  head: (_)
  (symbol) @type
  (#match? @type "^[A-Z]"))

; Other attribute values: `square`, `hex`, `i-nbors`, `to`, `from`, `home`.
(list
  head: (_)
  (symbol) @variable.parameter
  (#not-match? @variable.parameter "^[A-Z]")
  (#not-any-of? @variable.parameter
    "win" "lose" "draw" "mover-wins" "mover-loses" "mandatory" "can-pass"))

; A name outside any list, or inside a list without a head, is still a name.
(source_file
  (symbol) @variable)

(list
  !head
  (symbol) @variable)
