; Highlights for EGGG (.egg). Captures follow the common Neovim/Helix names.
; Patterns do not overlap, so the result is the same whichever of two matches an editor prefers.

(comment) @comment @spell

; Statement keywords
[
  "is"
  "are"
  "means"
  "like"
] @keyword

"assert" @keyword

; Connectives
[
  "and"
  "or"
  "not"
] @keyword.operator

"if" @keyword.conditional

; Names being defined. The attributes every game has are built in.
(definition
  name: (word) @variable.builtin
  (#any-of? @variable.builtin
    "game" "goal" "move" "moves" "board" "pieces" "players" "player" "hand" "hands" "turns"
    "score" "squares" "grid" "port" "level" "levels" "round" "rounds" "deck" "cards"))

(definition
  name: (word) @variable
  (#not-any-of? @variable
    "game" "goal" "move" "moves" "board" "pieces" "players" "player" "hand" "hands" "turns"
    "score" "squares" "grid" "port" "level" "levels" "round" "rounds" "deck" "cards"))

(definition
  name: (call
    function: (word) @function))

(code_statement
  name: (word) @function)

(code_statement
  name: (call
    function: (word) @function))

; Parameters of a parameterised name: Tester(N) is ...
(definition
  name: (call
    arguments: (arguments
      (word) @variable.parameter)))

(code_statement
  name: (call
    arguments: (arguments
      (word) @variable.parameter)))

; Games: SideTetris is like Tetris
(like_statement
  name: (word) @type)

(like_statement
  base: (word) @type)

; assert VoteYes: ... names the action the condition guards
(assert_statement
  name: (word) @function)

; Calls in values: Deal(cards, 5), highest(hand)
(phrase
  (call
    function: (word) @function.call))

(statement
  (call
    function: (word) @function.call))

(definition
  value: (call
    function: (word) @function.call))

(assert_statement
  condition: (call
    function: (word) @function.call))

(list
  (call
    function: (word) @function.call))

(tuple
  (call
    function: (word) @function.call))

(group
  (call
    function: (word) @function.call))

(arguments
  (call
    function: (word) @function.call))

; Capitalised words in values are named things: Rock, Ace, StraightFlush
((phrase
  (word) @constant)
  (#match? @constant "^[A-Z]"))

((statement
  (word) @constant)
  (#match? @constant "^[A-Z]"))

((definition
  value: (word) @constant)
  (#match? @constant "^[A-Z]"))

((list
  (word) @constant)
  (#match? @constant "^[A-Z]"))

((group
  (word) @constant)
  (#match? @constant "^[A-Z]"))

; Opaque code escapes (Perl); see injections.scm
(code) @embedded

(number) @number

(string) @string

(dimensions
  [
    "×"
    "x"
  ] @operator)

(binary_expression
  operator: _ @operator)

".." @operator

[
  "("
  ")"
  "["
  "]"
] @punctuation.bracket

[
  ","
  ":"
] @punctuation.delimiter
