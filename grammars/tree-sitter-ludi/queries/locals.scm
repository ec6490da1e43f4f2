; Ludi GDL locals.
;
; Names are visible throughout their game: the game's name, its players and
; the piece types it defines are definitions; names in argument position and
; capitalised heads are references (keyword heads such as `board` are not), so
; `Stone` in `(place (Stone White) home)` resolves to the piece definition
; `(Stone All ...)` and `White` to the player in `(players White Black)`.

; Scopes
; ------

(source_file) @local.scope

((list
  head: (symbol) @_game) @local.scope
  (#eq? @_game "game"))

; Definitions
; -----------

; (game NAME ...)
(list
  head: (symbol) @_game
  .
  (symbol) @local.definition
  (#eq? @_game "game"))

; (players White Black) and (players (White N) (Black S))
(list
  head: (symbol) @_players
  (symbol) @local.definition
  (#eq? @_players "players"))

(list
  head: (symbol) @_players
  (list
    head: (symbol) @local.definition)
  (#eq? @_players "players"))

; (pieces (Stone All ...) ...)
(list
  head: (symbol) @_pieces
  (list
    head: (symbol) @local.definition)
  (#eq? @_pieces "pieces"))

; References
; ----------

; Every argument name, e.g. `White` in `(Stone White)` or `home`.
(list
  head: (_)
  (symbol) @local.reference)

; A capitalised head names a piece or player: `(Stone White)`, `(All win ...)`.
(list
  head: (symbol) @local.reference
  (#match? @local.reference "^[A-Z]"))
